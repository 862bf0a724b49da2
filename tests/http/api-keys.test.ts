import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { auditLog } from '@/db/schema';
import { api } from '@/tests/support/api';
import { adminOfNewNetwork, createNetworkRow, keyOnTwoNetworks, personKey, serviceAccountKey, useTestDatabase } from '@/tests/support/fixtures';

useTestDatabase();

interface Key {
  id: string;
  key_name: string;
  start: string;
  token?: string;
  super_user: boolean;
  status: string;
  scopes: Array<{ network_id: string; role: string }>;
  last_used_at: string | null;
  revoked_at: string | null;
  replaced_by_key_id: string | null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('own keys: /v1/apikeys', () => {
  it('creates a key for the same person, with the caller’s scopes by default; the token is shown once', async () => {
    const { network, token, person } = await adminOfNewNetwork();
    const created = await api<Key>('POST', '/apikeys', { token, body: { key_name: 'ci' } });
    expect(created.status).toBe(201);
    expect(created.body.token).toMatch(/^sk_test_[0-9A-Za-z]{40}$/);
    expect(created.body.start).toBe(created.body.token!.slice(0, 12));
    expect(created.body.scopes).toEqual([{ network_id: network.id, role: 'administrator' }]);
    expect(created.body).toMatchObject({ key_name: 'ci', super_user: false, status: 'active', owner: { type: 'person', id: person.id } });

    const me = await api<{ key_name: string }>('GET', '/me', { token: created.body.token });
    expect(me.body.key_name).toBe('ci');

    const read = await api<Key>('GET', `/apikeys/${created.body.id}`, { token });
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty('token');
    const list = await api<{ items: Key[] }>('GET', '/apikeys', { token });
    expect(list.body.items.map((k) => k.id)).toContain(created.body.id);
    expect(list.text).not.toContain(created.body.token);
  });

  it('hides other owners’ keys (404, ids are not leaked)', async () => {
    const a = await adminOfNewNetwork();
    const b = await adminOfNewNetwork();
    const own = await api<Key>('POST', '/apikeys', { token: b.token, body: { key_name: 'b' } });
    expect((await api('GET', `/apikeys/${own.body.id}`, { token: a.token })).status).toBe(404);
    expect((await api('DELETE', `/apikeys/${own.body.id}`, { token: a.token })).status).toBe(404);
    expect((await api('POST', `/apikeys/${own.body.id}/rotate`, { token: a.token })).status).toBe(404);
    const listA = await api<{ items: Key[] }>('GET', '/apikeys', { token: a.token });
    expect(listA.body.items.map((k) => k.id)).not.toContain(own.body.id);
  });

  it('reaches none of the same person’s keys on a network the calling key lacks, nor keys above its role (invariant 1): unlisted, 404 to read, rotate and revoke', async () => {
    // Every key here proves its owner's identity (the person made them), so only the networks and
    // roles decide what each covers.
    const [a, b] = [await createNetworkRow(), await createNetworkRow()];
    const owner = await personKey([
      { networkId: a.id, role: 'administrator' },
      { networkId: b.id, role: 'administrator' },
    ]);
    const mint = async (key_name: string, scopes: Array<{ network_id: string; role: string }>) => {
      const res = await api<Key>('POST', '/apikeys', { token: owner.token, body: { key_name, scopes } });
      expect(res.status).toBe(201);
      return res.body;
    };
    const onA = await mint('A', [{ network_id: a.id, role: 'administrator' }]);
    const readsA = await mint('reads A', [{ network_id: a.id, role: 'read_only' }]);
    const onB = await mint('B', [{ network_id: b.id, role: 'administrator' }]);

    const listed = async (token: string) => (await api<{ items: Key[] }>('GET', '/apikeys', { token })).body.items.map((k) => k.id).sort();
    expect(await listed(owner.token)).toEqual([owner.key.id, onA.id, readsA.id, onB.id].sort());
    expect(await listed(onA.token!)).toEqual([onA.id, readsA.id].sort());
    expect(await listed(readsA.token!)).toEqual([readsA.id]);
    expect(await listed(onB.token!)).toEqual([onB.id]);

    for (const [caller, beyond] of [
      [onA, [onB, owner.key]],
      [readsA, [onA, onB, owner.key]],
    ] as const) {
      for (const target of beyond) {
        for (const [method, path] of [
          ['GET', `/apikeys/${target.id}`],
          ['POST', `/apikeys/${target.id}/rotate`],
          ['DELETE', `/apikeys/${target.id}`],
        ] as const) {
          const res = await api(method, path, { token: caller.token, body: method === 'POST' ? {} : undefined });
          expect(res.status, `${method} ${path} with the key ${caller.key_name}`).toBe(404);
        }
      }
    }
    // Nothing was rotated or revoked on the way.
    for (const token of [owner.token, onB.token!]) expect((await api('GET', '/me', { token })).status).toBe(200);
    expect((await api<Key>('GET', `/apikeys/${onB.id}`, { token: owner.token })).body).toMatchObject({ status: 'active', replaced_by_key_id: null });
  });

  it('rule 6: scopes must be within the creator’s access', async () => {
    const network = await createNetworkRow();
    const other = await createNetworkRow();
    const { token } = await personKey([{ networkId: network.id, role: 'read_only' }]);
    const higher = await api<{ detail: string }>('POST', '/apikeys', {
      token,
      body: { key_name: 'x', scopes: [{ network_id: network.id, role: 'administrator' }] },
    });
    expect(higher.status).toBe(403);
    expect(higher.body.detail).toMatch(/rule 6/);
    const foreign = await api<{ detail: string }>('POST', '/apikeys', {
      token,
      body: { key_name: 'x', scopes: [{ network_id: other.id, role: 'read_only' }] },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body.detail).toMatch(/no access to network/);
    const narrower = await api<Key>('POST', '/apikeys', { token, body: { key_name: 'x', scopes: [] } });
    expect(narrower.status).toBe(201);
    expect(narrower.body.scopes).toEqual([]);
  });

  it('rule 6 where the owner holds more than the key: no key for the owner on a network the key lacks, nor above its role; nothing is created', async () => {
    // The owner administers both networks, so only the calling key's access stands in the way
    // (without rule 6 each of these would be a working key: the owner's standing allows it).
    const [a, b] = [await createNetworkRow(), await createNetworkRow()];
    const owner = await personKey([
      { networkId: a.id, role: 'administrator' },
      { networkId: b.id, role: 'administrator' },
    ]);
    const onlyA = await api<Key>('POST', '/apikeys', {
      token: owner.token,
      body: { key_name: 'A only', scopes: [{ network_id: a.id, role: 'administrator' }] },
    });
    const readsA = await api<Key>('POST', '/apikeys', {
      token: owner.token,
      body: { key_name: 'reads A', scopes: [{ network_id: a.id, role: 'read_only' }] },
    });
    const before = (await api<{ items: Key[] }>('GET', '/apikeys', { token: owner.token })).body.items.length;
    for (const [token, scopes, why] of [
      [onlyA.body.token!, [{ network_id: b.id, role: 'read_only' }], `no access to network ${b.id}`],
      [
        onlyA.body.token!,
        [
          { network_id: a.id, role: 'administrator' },
          { network_id: b.id, role: 'administrator' },
        ],
        `no access to network ${b.id}`,
      ],
      [readsA.body.token!, [{ network_id: a.id, role: 'administrator' }], `you hold read_only on network ${a.id}`],
    ] as const) {
      const refused = await api<{ detail: string }>('POST', '/apikeys', { token, body: { key_name: 'wider', scopes } });
      expect(refused.status, JSON.stringify(scopes)).toBe(403);
      expect(refused.body.detail).toContain(why);
      expect(refused.body.detail).toMatch(/rule 6/);
    }
    expect((await api<{ items: Key[] }>('GET', '/apikeys', { token: owner.token })).body.items).toHaveLength(before);

    // The operator's key scoped to A (its owner reaches every network while it holds a super_user key).
    const operatorOnA = await api<Key>('POST', '/apikeys', {
      body: { key_name: 'operator on A', scopes: [{ network_id: a.id, role: 'administrator' }] },
    });
    expect(operatorOnA.status).toBe(201);
    const escalated = await api<{ detail: string }>('POST', '/apikeys', {
      token: operatorOnA.body.token,
      body: { key_name: 'operator on B', scopes: [{ network_id: b.id, role: 'administrator' }] },
    });
    expect(escalated.status).toBe(403);
    expect(escalated.body.detail).toMatch(/rule 6/);
    const copy = await api<Key>('POST', '/apikeys', { token: operatorOnA.body.token, body: { key_name: 'operator on A, again' } });
    expect(copy.status).toBe(201);
    expect(copy.body.scopes).toEqual([{ network_id: a.id, role: 'administrator' }]);
  });

  it('rule 7: only a super_user key mints a super_user key', async () => {
    const { token } = await adminOfNewNetwork();
    const refused = await api<{ detail: string }>('POST', '/apikeys', { token, body: { key_name: 'root', super_user: true } });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/rule 7/);
    const minted = await api<Key>('POST', '/apikeys', { body: { key_name: 'root 2', super_user: true } });
    expect(minted.status).toBe(201);
    expect(minted.body.super_user).toBe(true);
    expect((await api<{ super_user: boolean }>('GET', '/me', { token: minted.body.token })).body.super_user).toBe(true);
  });

  it('refuses bad input with 400', async () => {
    const { token, network } = await adminOfNewNetwork();
    for (const body of [
      {},
      { key_name: ' ' },
      { key_name: 'x', expires_at: 'tomorrow' },
      { key_name: 'x', expires_at: '2001-01-01T00:00:00Z' },
      { key_name: 'x', scopes: [{ network_id: network.id, role: 'owner' }] },
      {
        key_name: 'x',
        scopes: [
          { network_id: network.id, role: 'read_only' },
          { network_id: network.id, role: 'read_only' },
        ],
      },
      { key_name: 'x', super_user: 'false' },
      { key_name: 'x', colour: 'red' },
    ]) {
      const res = await api('POST', '/apikeys', { token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('honours expiry exactly: the key works until expires_at, then 401', async () => {
    const { token } = await adminOfNewNetwork();
    const expiresAt = new Date(Date.now() + 1500).toISOString();
    const created = await api<Key>('POST', '/apikeys', { token, body: { key_name: 'short', expires_at: expiresAt } });
    expect(created.status).toBe(201);
    expect((await api('GET', '/me', { token: created.body.token })).status).toBe(200);
    await sleep(Date.parse(expiresAt) - Date.now() + 50);
    const after = await api<{ detail: string }>('GET', '/me', { token: created.body.token });
    expect(after.status).toBe(401);
    expect(after.body.detail).toMatch(/expired/);
    expect((await api<Key>('GET', `/apikeys/${created.body.id}`, { token })).body.status).toBe('expired');
  });

  it('revokes immediately; revoking again changes nothing', async () => {
    const { token } = await adminOfNewNetwork();
    const created = await api<Key>('POST', '/apikeys', { token, body: { key_name: 'doomed' } });
    const revoked = await api<Key>('DELETE', `/apikeys/${created.body.id}`, { token });
    expect(revoked.status).toBe(200);
    expect(revoked.body.status).toBe('revoked');
    expect((await api('GET', '/me', { token: created.body.token })).status).toBe(401);
    const again = await api<Key>('DELETE', `/apikeys/${created.body.id}`, { token });
    expect(again.status).toBe(200);
    expect(again.body.revoked_at).toBe(revoked.body.revoked_at);
  });

  it('rotates with a grace period: the old token works until it ends, then 401', async () => {
    const { token } = await adminOfNewNetwork();
    const old = await api<Key>('POST', '/apikeys', { token, body: { key_name: 'rotating' } });
    const rotated = await api<Key>('POST', `/apikeys/${old.body.id}/rotate`, { token, body: { grace_period_seconds: 2 } });
    expect(rotated.status).toBe(201);
    expect(rotated.body.token).not.toBe(old.body.token);
    expect(rotated.body).toMatchObject({ key_name: 'rotating', scopes: old.body.scopes });
    expect((await api('GET', '/me', { token: old.body.token })).status).toBe(200);
    expect((await api('GET', '/me', { token: rotated.body.token })).status).toBe(200);
    const oldView = await api<Key>('GET', `/apikeys/${old.body.id}`, { token });
    expect(oldView.body.replaced_by_key_id).toBe(rotated.body.id);
    expect((await api('POST', `/apikeys/${old.body.id}/rotate`, { token })).status).toBe(409);
    await sleep(2100);
    expect((await api('GET', '/me', { token: old.body.token })).status).toBe(401);
    expect((await api('GET', '/me', { token: rotated.body.token })).status).toBe(200);
  });

  it('rotates without grace: the old token stops at once', async () => {
    const { token } = await adminOfNewNetwork();
    const old = await api<Key>('POST', '/apikeys', { token, body: { key_name: 'now' } });
    const rotated = await api<Key>('POST', `/apikeys/${old.body.id}/rotate`, { token });
    expect(rotated.status).toBe(201);
    expect((await api('GET', '/me', { token: old.body.token })).status).toBe(401);
  });

  it('keeps last_used_at to the minute', async () => {
    const { token } = await adminOfNewNetwork();
    const created = await api<Key>('POST', '/apikeys', { token, body: { key_name: 'used' } });
    expect(created.body.last_used_at).toBeNull();
    await api('GET', '/me', { token: created.body.token });
    let seen: string | null = null;
    for (let i = 0; i < 20 && !seen; i++) {
      await sleep(100);
      seen = (await api<Key>('GET', `/apikeys/${created.body.id}`, { token })).body.last_used_at;
    }
    expect(seen).not.toBeNull();
    expect(Math.abs(Date.parse(seen!) - Date.now())).toBeLessThan(60_000);
  });

  it('writes audit rows for creation, rotation and revocation in each scoped network', async () => {
    const { token, network } = await adminOfNewNetwork();
    const created = await api<Key>('POST', '/apikeys', { token, body: { key_name: 'audited' } });
    await api('DELETE', `/apikeys/${created.body.id}`, { token });
    const rows = await database()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, created.body.id), eq(auditLog.networkId, network.id)));
    expect(rows.map((r) => r.action).sort()).toEqual(['api_key.created', 'api_key.revoked']);
    expect(rows.every((r) => r.actorKeyId?.startsWith('key_'))).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(created.body.token);
  });
});

describe('network keys: /v1/networks/{n}/apikeys', () => {
  it('lists every key scoped to the network for administrators, never a token; read_only gets 403', async () => {
    const { network, token, key } = await adminOfNewNetwork();
    const member = await personKey([{ networkId: network.id, role: 'read_only' }]);
    const list = await api<{ items: Key[] }>('GET', `/networks/${network.id}/apikeys`, { token });
    expect(list.status).toBe(200);
    expect(list.body.items.map((k) => k.id).sort()).toEqual([key.id, member.key.id].sort());
    expect(list.text).not.toMatch(/sk_test_[0-9A-Za-z]{40}/);
    expect((await api('GET', `/networks/${network.id}/apikeys`, { token: member.token })).status).toBe(403);
  });

  it('filters by owner and by status, in SQL, the cursor bound to the filters', async () => {
    const { network, token, key: adminKey, person: admin } = await adminOfNewNetwork();
    const member = await personKey([{ networkId: network.id, role: 'read_only' }]);
    const bot = await serviceAccountKey(network.id, 'read_only');
    const expiring = await personKey([{ networkId: network.id, role: 'read_only' }], { expiresAt: new Date(Date.now() + 1_500) });
    const revokedThenExpired = await personKey([{ networkId: network.id, role: 'read_only' }], { expiresAt: new Date(Date.now() + 1_500) });
    expect((await api('DELETE', `/networks/${network.id}/apikeys/${revokedThenExpired.key.id}`, { token })).status).toBe(200);
    const second = await api<Key>('POST', '/apikeys', { token: member.token, body: { key_name: 'second' } });
    expect(second.status).toBe(201);
    expect((await api('DELETE', `/networks/${network.id}/apikeys/${member.key.id}`, { token })).status).toBe(200);
    // Rotated with a grace period: the old key stays active until the grace ends.
    const rotated = await api<Key>('POST', `/networks/${network.id}/apikeys/${bot.key.id}/rotate`, { token, body: { grace_period_seconds: 3600 } });
    expect(rotated.status).toBe(201);
    await sleep(1_600);

    const ids = async (query: string) => {
      const res = await api<{ items: Key[]; next_cursor: string | null }>('GET', `/networks/${network.id}/apikeys${query}`, { token });
      expect(res.status).toBe(200);
      return res.body.items.map((k) => k.id).sort();
    };
    expect(await ids(`?owner_id=${member.person.id}`)).toEqual([member.key.id, second.body.id].sort());
    expect(await ids(`?owner_id=${bot.serviceAccount.id}`)).toEqual([bot.key.id, rotated.body.id].sort());
    expect(await ids(`?owner_id=${member.person.id}&status=revoked`)).toEqual([member.key.id]);
    expect(await ids('?status=revoked')).toEqual([member.key.id, revokedThenExpired.key.id].sort());
    expect(await ids('?status=expired')).toEqual([expiring.key.id]);
    expect(await ids('?status=active')).toEqual([adminKey.id, second.body.id, bot.key.id, rotated.body.id].sort());
    expect(await ids(`?owner_id=${admin.id}&status=expired`)).toEqual([]);
    // Another network's person is no owner here.
    const stranger = await adminOfNewNetwork();
    expect(await ids(`?owner_id=${stranger.person.id}`)).toEqual([]);

    const first = await api<{ items: Key[]; next_cursor: string }>('GET', `/networks/${network.id}/apikeys?status=active&limit=2`, { token });
    const rest = await api<{ items: Key[]; next_cursor: string | null }>(
      'GET',
      `/networks/${network.id}/apikeys?status=active&limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`,
      { token },
    );
    expect([...first.body.items, ...rest.body.items].map((k) => k.id).sort()).toEqual(await ids('?status=active'));
    expect(rest.body.next_cursor).toBeNull();
    const swapped = await api('GET', `/networks/${network.id}/apikeys?status=revoked&cursor=${encodeURIComponent(first.body.next_cursor)}`, {
      token,
    });
    expect(swapped.status).toBe(400);

    const bad = await api<{ errors: Array<{ path: string }> }>('GET', `/networks/${network.id}/apikeys?status=lost`, { token });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e) => e.path)).toEqual(['status']);
  });

  it('reads one key as the list shows it: this network’s scope only, never a token; 404 outside the network, 403 for read_only', async () => {
    const { a, adminA: admin, both } = await keyOnTwoNetworks({ a: 'read_only', b: 'administrator' });
    const res = await api<Key>('GET', `/networks/${a.id}/apikeys/${both.key.id}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: both.key.id, status: 'active', scopes: [{ network_id: a.id, role: 'read_only' }] });
    expect(res.body.token).toBeUndefined();
    expect(res.text).not.toMatch(/sk_test_[0-9A-Za-z]{40}/);
    const stranger = await adminOfNewNetwork();
    expect((await api('GET', `/networks/${a.id}/apikeys/${stranger.key.id}`, { token: admin.token })).status).toBe(404);
    expect((await api('GET', `/networks/${a.id}/apikeys/${admin.key.id}`, { token: both.token })).status).toBe(403);
  });

  it('revokes a member’s key: 401 on its next request', async () => {
    const { network, token } = await adminOfNewNetwork();
    const member = await personKey([{ networkId: network.id, role: 'read_only' }]);
    const res = await api<Key>('DELETE', `/networks/${network.id}/apikeys/${member.key.id}`, { token });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('revoked');
    expect((await api('GET', '/me', { token: member.token })).status).toBe(401);
  });

  it('takes only its own network’s scope from a key that reaches other networks', async () => {
    const { a, b, adminA, both } = await keyOnTwoNetworks({ a: 'read_only', b: 'read_only' });
    const res = await api<Key>('DELETE', `/networks/${a.id}/apikeys/${both.key.id}`, { token: adminA.token });
    expect(res.status).toBe(200);
    // Network A's view of the key: no scope there any more, and nothing of network B (invariant 8).
    expect(res.body.scopes).toEqual([]);
    expect(res.body.status).toBe('active');
    expect((await api('GET', `/networks/${a.id}`, { token: both.token })).status).toBe(403);
    expect((await api('GET', `/networks/${b.id}`, { token: both.token })).status).toBe(200);
  });

  it('answers 404 for a key that is not scoped to the network', async () => {
    const { network, token } = await adminOfNewNetwork();
    const stranger = await adminOfNewNetwork();
    expect((await api('DELETE', `/networks/${network.id}/apikeys/${stranger.key.id}`, { token })).status).toBe(404);
    expect((await api('GET', '/me', { token: stranger.token })).status).toBe(200);
  });
});
