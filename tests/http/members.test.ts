import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { apiKeyScopes, auditLog, memberships } from '@/db/schema';
import type { Role } from '@/domain/roles';
import { api, type Page, type Problem } from '@/tests/support/api';
import { createNetworkRow, personKey, useTestDatabase } from '@/tests/support/fixtures';

useTestDatabase();

interface Member {
  id: string;
  network_id: string;
  user: { id: string; email: string | null; name: string };
  role: Role;
  status: 'active' | 'removed';
  version: number;
  created_at: string;
  updated_at: string;
}
interface Me {
  scopes: Array<{ network_id: string; role: Role }>;
}

/** A person who is a member of the network with `role`, with a key; and their membership id. */
async function member(networkId: string, role: Role) {
  const person = await personKey([{ networkId, role }]);
  const [row] = await database()
    .select()
    .from(memberships)
    .where(and(eq(memberships.networkId, networkId), eq(memberships.userId, person.person.id)));
  return { ...person, memberId: row!.id };
}

async function auditRows(targetId: string) {
  return database().select().from(auditLog).where(eq(auditLog.targetId, targetId));
}

describe('listing and reading members', () => {
  it('lists active members to a read_only key, in id order, with the member shape', async () => {
    const network = await createNetworkRow();
    const admin = await member(network.id, 'administrator');
    const reader = await member(network.id, 'read_only');
    const res = await api<Page<Member>>('GET', `/networks/${network.id}/members`, { token: reader.token });
    expect(res.status).toBe(200);
    expect(res.body.next_cursor).toBeNull();
    expect(res.body.items.map((m) => m.id)).toEqual([admin.memberId, reader.memberId]);
    const first = res.body.items[0]!;
    expect(first).toEqual({
      id: admin.memberId,
      network_id: network.id,
      user: { id: admin.person.id, email: admin.person.email, name: admin.person.name },
      role: 'administrator',
      status: 'active',
      version: 1,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(first.id).toMatch(/^mem_[0-9a-z]{26}$/);
  });

  it('pages with a cursor and filters by status (default active)', async () => {
    const network = await createNetworkRow();
    const people = [];
    for (let i = 0; i < 3; i++) people.push(await member(network.id, 'read_only'));
    const admin = await member(network.id, 'administrator');
    await database().update(memberships).set({ status: 'removed' }).where(eq(memberships.id, people[1]!.memberId));

    const page1 = await api<Page<Member>>('GET', `/networks/${network.id}/members?limit=2`, { token: admin.token });
    expect(page1.body.items.map((m) => m.id)).toEqual([people[0]!.memberId, people[2]!.memberId]);
    const page2 = await api<Page<Member>>('GET', `/networks/${network.id}/members?limit=2&cursor=${encodeURIComponent(page1.body.next_cursor!)}`, {
      token: admin.token,
    });
    expect(page2.body.items.map((m) => m.id)).toEqual([admin.memberId]);
    expect(page2.body.next_cursor).toBeNull();

    const removed = await api<Page<Member>>('GET', `/networks/${network.id}/members?status=removed`, { token: admin.token });
    expect(removed.body.items.map((m) => [m.id, m.status])).toEqual([[people[1]!.memberId, 'removed']]);
    // A cursor from the active list does not page the removed list.
    const foreign = await api('GET', `/networks/${network.id}/members?status=removed&cursor=${encodeURIComponent(page1.body.next_cursor!)}`, {
      token: admin.token,
    });
    expect(foreign.status).toBe(400);
    expect((await api('GET', `/networks/${network.id}/members?status=gone`, { token: admin.token })).status).toBe(400);
  });

  it('gets one member with its ETag; another network’s member id is 404', async () => {
    const network = await createNetworkRow();
    const other = await createNetworkRow();
    const reader = await member(network.id, 'read_only');
    const stranger = await member(other.id, 'administrator');
    const res = await api<Member>('GET', `/networks/${network.id}/members/${reader.memberId}`, { token: reader.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: reader.memberId, role: 'read_only', status: 'active', version: 1 });
    expect(res.headers.get('etag')).toBe('"1"');

    const foreign = await api<Problem>('GET', `/networks/${network.id}/members/${stranger.memberId}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.type).toMatch(/\/errors\/not-found$/);
    expect((await api('GET', `/networks/${network.id}/members/mem_00000000000000000000000000`)).status).toBe(404);
  });

  it('401 without a key; 403 for a network outside the key’s scopes', async () => {
    const network = await createNetworkRow();
    const other = await createNetworkRow();
    const outsider = await member(other.id, 'administrator');
    expect((await api('GET', `/networks/${network.id}/members`, { token: null })).status).toBe(401);
    const foreign = await api<Problem>('GET', `/networks/${network.id}/members`, { token: outsider.token });
    expect(foreign.status).toBe(403);
    const target = await member(network.id, 'read_only');
    expect(
      (await api('PATCH', `/networks/${network.id}/members/${target.memberId}`, { token: outsider.token, body: { role: 'administrator' } })).status,
    ).toBe(403);
    expect((await api('DELETE', `/networks/${network.id}/members/${target.memberId}`, { token: outsider.token })).status).toBe(403);
  });
});

describe('changing a member’s role', () => {
  it('promotes with If-Match, bumps version and ETag, and writes member.role_changed', async () => {
    const network = await createNetworkRow();
    const admin = await member(network.id, 'administrator');
    const reader = await member(network.id, 'read_only');
    const res = await api<Member>('PATCH', `/networks/${network.id}/members/${reader.memberId}`, {
      token: admin.token,
      body: { role: 'administrator' },
      headers: { 'if-match': '"1"' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ role: 'administrator', version: 2 });
    expect(res.headers.get('etag')).toBe('"2"');

    const rows = await auditRows(reader.memberId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      networkId: network.id,
      actorKeyId: admin.key.id,
      action: 'member.role_changed',
      targetType: 'member',
      data: expect.objectContaining({ from: 'read_only', to: 'administrator' }),
    });

    const stale = await api<Problem>('PATCH', `/networks/${network.id}/members/${reader.memberId}`, {
      token: admin.token,
      body: { role: 'read_only', version: 1 },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.detail).toMatch(/version/);
  });

  it('refuses bad input with 400: unknown role, unknown field, missing role', async () => {
    const network = await createNetworkRow();
    const admin = await member(network.id, 'administrator');
    const reader = await member(network.id, 'read_only');
    const path = `/networks/${network.id}/members/${reader.memberId}`;
    const badRole = await api<Problem>('PATCH', path, { token: admin.token, body: { role: 'owner' } });
    expect(badRole.status).toBe(400);
    expect(badRole.body.errors![0]!.path).toBe('role');
    const unknown = await api<Problem>('PATCH', path, { token: admin.token, body: { role: 'read_only', colour: 'red' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors![0]!.message).toMatch(/colour/);
    expect((await api('PATCH', path, { token: admin.token, body: {} })).status).toBe(400);
  });

  it('refuses a read_only key with 403', async () => {
    const network = await createNetworkRow();
    await member(network.id, 'administrator');
    const reader = await member(network.id, 'read_only');
    const res = await api<Problem>('PATCH', `/networks/${network.id}/members/${reader.memberId}`, {
      token: reader.token,
      body: { role: 'administrator' },
    });
    expect(res.status).toBe(403);
  });

  it('a demotion applies to the person’s key on the next request', async () => {
    const network = await createNetworkRow();
    const admin = await member(network.id, 'administrator');
    const other = await member(network.id, 'administrator');
    const res = await api('PATCH', `/networks/${network.id}/members/${other.memberId}`, { token: admin.token, body: { role: 'read_only' } });
    expect(res.status).toBe(200);
    const me = await api<Me>('GET', '/me', { token: other.token });
    expect(me.body.scopes).toEqual([{ network_id: network.id, role: 'read_only' }]);
    const write = await api('PATCH', `/networks/${network.id}/members/${admin.memberId}`, { token: other.token, body: { role: 'read_only' } });
    expect(write.status).toBe(403);
  });

  it('refuses to demote the last active administrator (409)', async () => {
    const network = await createNetworkRow();
    const admin = await member(network.id, 'administrator');
    await member(network.id, 'read_only');
    const res = await api<Problem>('PATCH', `/networks/${network.id}/members/${admin.memberId}`, {
      token: admin.token,
      body: { role: 'read_only' },
    });
    expect(res.status).toBe(409);
    expect(res.body.type).toMatch(/\/errors\/conflict$/);
    expect(res.body.detail).toMatch(/is the last active administrator of this network/);
    const unchanged = await api<Member>('GET', `/networks/${network.id}/members/${admin.memberId}`);
    expect(unchanged.body).toMatchObject({ role: 'administrator', version: 1 });
  });
});

describe('removing a member', () => {
  it('marks the member removed (200), audits it, and the person’s key loses the network at once, for good', async () => {
    const network = await createNetworkRow();
    const admin = await member(network.id, 'administrator');
    const reader = await member(network.id, 'read_only');
    expect((await api('GET', `/networks/${network.id}`, { token: reader.token })).status).toBe(200);

    const res = await api<Member>('DELETE', `/networks/${network.id}/members/${reader.memberId}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: reader.memberId, status: 'removed', version: 2 });

    expect((await api('GET', `/networks/${network.id}`, { token: reader.token })).status).toBe(403);
    const me = await api<Me>('GET', '/me', { token: reader.token });
    expect(me.status).toBe(200);
    expect(me.body.scopes).toEqual([]);
    // The scope itself is gone (not only narrowed), so no later re-invitation brings it back.
    const own = await api<{ scopes: unknown[] }>('GET', `/apikeys/${reader.key.id}`, { token: reader.token });
    expect(own.body.scopes).toEqual([]);
    const keyRows = await database().select().from(auditLog).where(eq(auditLog.targetId, reader.key.id));
    expect(keyRows.map((r) => [r.action, r.data])).toEqual([['api_key.scope_removed', { reason: 'member_removed' }]]);

    const active = await api<Page<Member>>('GET', `/networks/${network.id}/members`, { token: admin.token });
    expect(active.body.items.map((m) => m.id)).toEqual([admin.memberId]);

    const rows = await auditRows(reader.memberId);
    expect(rows.map((r) => r.action)).toEqual(['member.removed']);
    expect(rows[0]).toMatchObject({ networkId: network.id, actorKeyId: admin.key.id, targetType: 'member' });

    // Removing again changes nothing.
    const again = await api<Member>('DELETE', `/networks/${network.id}/members/${reader.memberId}`, { token: admin.token });
    expect(again.status).toBe(200);
    expect(again.body.version).toBe(2);
    expect(await auditRows(reader.memberId)).toHaveLength(1);
    // A removed member's role cannot be changed.
    expect(
      (await api('PATCH', `/networks/${network.id}/members/${reader.memberId}`, { token: admin.token, body: { role: 'administrator' } })).status,
    ).toBe(409);
  });

  it('honours If-Match: a stale version is 409', async () => {
    const network = await createNetworkRow();
    const admin = await member(network.id, 'administrator');
    const reader = await member(network.id, 'read_only');
    const res = await api('DELETE', `/networks/${network.id}/members/${reader.memberId}`, { token: admin.token, headers: { 'if-match': '"7"' } });
    expect(res.status).toBe(409);
  });

  it('refuses to remove the last active administrator (409), and a read_only key (403)', async () => {
    const network = await createNetworkRow();
    const admin = await member(network.id, 'administrator');
    const reader = await member(network.id, 'read_only');
    expect((await api('DELETE', `/networks/${network.id}/members/${admin.memberId}`, { token: reader.token })).status).toBe(403);
    const res = await api<Problem>('DELETE', `/networks/${network.id}/members/${admin.memberId}`, { token: admin.token });
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/is the last active administrator of this network/);
    expect((await api('DELETE', `/networks/${network.id}/members/mem_00000000000000000000000000`, { token: admin.token })).status).toBe(404);
  });

  it('of two concurrent requests removing/demoting the last two administrators, exactly one succeeds', async () => {
    for (let round = 0; round < 5; round++) {
      const network = await createNetworkRow();
      const a = await member(network.id, 'administrator');
      const b = await member(network.id, 'administrator');
      await member(network.id, 'read_only');
      const [first, second] = await Promise.all([
        api('DELETE', `/networks/${network.id}/members/${a.memberId}`),
        round % 2 === 0
          ? api('DELETE', `/networks/${network.id}/members/${b.memberId}`)
          : api('PATCH', `/networks/${network.id}/members/${b.memberId}`, { body: { role: 'read_only' } }),
      ]);
      expect([first.status, second.status].sort()).toEqual([200, 409]);
      const admins = await database()
        .select()
        .from(memberships)
        .where(and(eq(memberships.networkId, network.id), eq(memberships.status, 'active'), eq(memberships.role, 'administrator')));
      expect(admins).toHaveLength(1);
    }
  });
});

describe('removal racing key creation', () => {
  it('a key minted for a member, or by them, while they are removed never keeps the network', async () => {
    const network = await createNetworkRow();
    const admin = await member(network.id, 'administrator');
    let minted = 0;
    for (let i = 0; i < 8; i++) {
      const person = await member(network.id, 'read_only');
      const [byAdmin, byThemself] = await Promise.all([
        api<{ id: string }>('POST', `/networks/${network.id}/members/${person.memberId}/keys`, { token: admin.token, body: { key_name: 'race' } }),
        api<{ id: string }>('POST', '/apikeys', {
          token: person.token,
          body: { key_name: 'race', scopes: [{ network_id: network.id, role: 'read_only' }] },
        }),
        api('DELETE', `/networks/${network.id}/members/${person.memberId}`, { token: admin.token }),
      ]);
      for (const res of [byAdmin, byThemself]) {
        // Either it lost the race (409, or 403 once the removal narrowed the caller) or it was cut with the rest.
        expect([201, 403, 409]).toContain(res.status);
        if (res.status !== 201) continue;
        minted++;
        const left = await database()
          .select()
          .from(apiKeyScopes)
          .where(and(eq(apiKeyScopes.keyId, res.body.id), eq(apiKeyScopes.networkId, network.id)));
        expect(left).toEqual([]);
      }
    }
    expect(minted).toBeGreaterThan(0);
  });
});

describe('minting a key for a member', () => {
  it('201 with the token once, scoped to the network with the member’s role; the key works; audited', async () => {
    const network = await createNetworkRow();
    const admin = await member(network.id, 'administrator');
    const reader = await member(network.id, 'read_only');
    const res = await api<{ id: string; token: string; scopes: unknown; owner: unknown; key_name: string; status: string }>(
      'POST',
      `/networks/${network.id}/members/${reader.memberId}/keys`,
      { token: admin.token, body: { key_name: 'laptop' } },
    );
    expect(res.status).toBe(201);
    expect(res.body.token).toMatch(/^sk_test_[0-9A-Za-z]{40}$/);
    expect(res.body).toMatchObject({
      key_name: 'laptop',
      status: 'active',
      scopes: [{ network_id: network.id, role: 'read_only' }],
      owner: { type: 'person', id: reader.person.id },
    });
    const me = await api<Me>('GET', '/me', { token: res.body.token });
    expect(me.body.scopes).toEqual([{ network_id: network.id, role: 'read_only' }]);
    const rows = await auditRows(res.body.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: 'api_key.created', actorKeyId: admin.key.id, networkId: network.id });
  });

  it('refuses a role above the member’s (400), a read_only caller (403), bad input (400) and a removed member (409)', async () => {
    const network = await createNetworkRow();
    const admin = await member(network.id, 'administrator');
    const reader = await member(network.id, 'read_only');
    const path = `/networks/${network.id}/members/${reader.memberId}/keys`;
    const tooHigh = await api<Problem>('POST', path, { token: admin.token, body: { key_name: 'x', role: 'administrator' } });
    expect(tooHigh.status).toBe(400);
    expect(tooHigh.body.errors![0]!.path).toBe('role');
    expect((await api('POST', path, { token: reader.token, body: { key_name: 'x' } })).status).toBe(403);
    expect((await api('POST', path, { token: admin.token, body: {} })).status).toBe(400);
    expect((await api('POST', path, { token: admin.token, body: { key_name: 'x', scopes: [] } })).status).toBe(400);
    expect((await api('POST', path, { token: admin.token, body: { key_name: 'x', expires_at: '2001-01-01T00:00:00Z' } })).status).toBe(400);
    await api('DELETE', `/networks/${network.id}/members/${reader.memberId}`, { token: admin.token });
    expect((await api('POST', path, { token: admin.token, body: { key_name: 'x' } })).status).toBe(409);
  });

  it('a key minted for a member reaches none of the keys the member got themselves (invariant 1), while theirs reach it', async () => {
    // Same person, same network, same role: only that the administrator made it tells the minted
    // key apart. Whoever holds it (the administrator saw its token) must not list, rotate or
    // revoke the keys the person signs in with.
    const network = await createNetworkRow();
    const admin = await member(network.id, 'administrator');
    const colleague = await member(network.id, 'administrator');
    const minted = await api<{ id: string; token: string }>('POST', `/networks/${network.id}/members/${colleague.memberId}/keys`, {
      token: admin.token,
      body: { key_name: 'made by the administrator', role: 'administrator' },
    });
    expect(minted.status).toBe(201);
    const listed = async (token: string) => (await api<Page<{ id: string }>>('GET', '/apikeys', { token })).body.items.map((k) => k.id).sort();
    expect(await listed(minted.body.token)).toEqual([minted.body.id]);
    expect(await listed(colleague.token)).toEqual([colleague.key.id, minted.body.id].sort());
    for (const [method, path] of [
      ['GET', `/apikeys/${colleague.key.id}`],
      ['POST', `/apikeys/${colleague.key.id}/rotate`],
      ['DELETE', `/apikeys/${colleague.key.id}`],
    ] as const) {
      expect((await api(method, path, { token: minted.body.token, body: method === 'POST' ? {} : undefined })).status, `${method} ${path}`).toBe(404);
    }
    expect((await api('GET', '/me', { token: colleague.token })).status).toBe(200);
    // The person's own key manages the minted one.
    expect((await api('DELETE', `/apikeys/${minted.body.id}`, { token: colleague.token })).status).toBe(200);
    expect((await api('GET', '/me', { token: minted.body.token })).status).toBe(401);
  });

  it('mints an administrator key for an administrator when asked, and 404 for another network’s member', async () => {
    const network = await createNetworkRow();
    const other = await createNetworkRow();
    const admin = await member(network.id, 'administrator');
    const colleague = await member(network.id, 'administrator');
    const stranger = await member(other.id, 'administrator');
    const narrow = await api<{ scopes: unknown }>('POST', `/networks/${network.id}/members/${colleague.memberId}/keys`, {
      token: admin.token,
      body: { key_name: 'reporting', role: 'read_only' },
    });
    expect(narrow.status).toBe(201);
    expect(narrow.body.scopes).toEqual([{ network_id: network.id, role: 'read_only' }]);
    const foreign = await api('POST', `/networks/${network.id}/members/${stranger.memberId}/keys`, { token: admin.token, body: { key_name: 'x' } });
    expect(foreign.status).toBe(404);
  });
});
