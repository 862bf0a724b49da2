import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { newId } from '@/db/ids';
import { memberships } from '@/db/schema';
import { mintApiKey } from '@/server/services/keys/mint-api-key';
import { api } from '@/tests/support/api';
import { createNetworkRow, createPerson, keyOnTwoNetworks, personKey, serviceAccountKey, useTestDatabase } from '@/tests/support/fixtures';

/**
 * What an outside probe of the running service found in an hour (issue 13), each step as it
 * was tried, now refused. The model-based test (tests/reliability/credentials-model.test.ts)
 * looks for such holes by itself; these pin down the ones that were found.
 */
useTestDatabase();

interface Key {
  id: string;
  token: string;
  scopes: Array<{ network_id: string; role: string }>;
  super_user: boolean;
}
interface Me {
  key_id: string;
  super_user: boolean;
  scopes: Array<{ network_id: string; role: string }>;
}

async function memberId(networkId: string, userId: string): Promise<string> {
  const [row] = await database()
    .select()
    .from(memberships)
    .where(and(eq(memberships.networkId, networkId), eq(memberships.userId, userId)));
  return row!.id;
}

describe('1. a weak key never reaches a stronger key of its own owner', () => {
  it('a key with no scopes cannot see or rotate the operator’s super_user key', async () => {
    const superKey = (await api<Me>('GET', '/me')).body.key_id;
    const weak = await api<Key>('POST', '/apikeys', { body: { key_name: 'no scopes', scopes: [] } });
    expect(weak.status).toBe(201);
    const listed = await api<{ items: Array<{ id: string }> }>('GET', '/apikeys', { token: weak.body.token });
    expect(listed.body.items.map((k) => k.id)).not.toContain(superKey);
    expect((await api('POST', `/apikeys/${superKey}/rotate`, { token: weak.body.token, body: {} })).status).toBe(404);
    expect((await api('GET', `/apikeys/${superKey}`, { token: weak.body.token })).status).toBe(404);
    expect((await api('DELETE', `/apikeys/${superKey}`, { token: weak.body.token })).status).toBe(404);
    expect((await api<Me>('GET', '/me')).status).toBe(200);
  });

  it('a read_only key of an administrator service account cannot rotate the account’s administrator key', async () => {
    const network = await createNetworkRow();
    const account = await serviceAccountKey(network.id, 'administrator');
    const reader = await api<Key>('POST', '/apikeys', {
      token: account.token,
      body: { key_name: 'reader', scopes: [{ network_id: network.id, role: 'read_only' }] },
    });
    expect(reader.status).toBe(201);
    expect((await api('POST', `/apikeys/${account.key.id}/rotate`, { token: reader.body.token, body: {} })).status).toBe(404);
    // The administrator key covers the reader, so it may rotate it.
    expect((await api('POST', `/apikeys/${reader.body.id}/rotate`, { token: account.token, body: {} })).status).toBe(201);
  });
});

describe('2. an administrator of A never reaches a person’s access in B', () => {
  it('a key minted for the person in A, or rotated through A, cannot list, rotate or revoke their B key', async () => {
    const a = await createNetworkRow();
    const b = await createNetworkRow();
    const adminA = await personKey([{ networkId: a.id, role: 'administrator' }]);
    const person = await personKey([{ networkId: b.id, role: 'administrator' }]);
    await database()
      .insert(memberships)
      .values({ id: newId('membership'), networkId: a.id, userId: person.person.id, role: 'read_only' });
    const minted = await api<Key>('POST', `/networks/${a.id}/members/${await memberId(a.id, person.person.id)}/keys`, {
      token: adminA.token,
      body: { key_name: 'for P' },
    });
    expect(minted.status).toBe(201);
    const rotated = await api<Key>('POST', `/networks/${a.id}/apikeys/${minted.body.id}/rotate`, { token: adminA.token, body: {} });
    expect(rotated.status).toBe(201);
    const token = rotated.body.token;
    const listed = await api<{ items: Array<{ id: string }> }>('GET', '/apikeys', { token });
    expect(listed.body.items.map((k) => k.id)).not.toContain(person.key.id);
    expect((await api('POST', `/apikeys/${person.key.id}/rotate`, { token, body: { grace_period_seconds: 604800 } })).status).toBe(404);
    expect((await api('DELETE', `/apikeys/${person.key.id}`, { token })).status).toBe(404);
    expect((await api<Me>('GET', '/me', { token: person.token })).body.scopes).toEqual([{ network_id: b.id, role: 'administrator' }]);
  });

  it('a key minted for the person in A cannot see or revoke the keys they sign in with, not even ones with no scope', async () => {
    const a = await createNetworkRow();
    const adminA = await personKey([{ networkId: a.id, role: 'administrator' }]);
    const person = await personKey([{ networkId: a.id, role: 'read_only' }]);
    const own = await api<Key>('POST', '/apikeys', { token: person.token, body: { key_name: 'mine, no scope', scopes: [] } });
    expect(own.status).toBe(201);
    const minted = await api<Key>('POST', `/networks/${a.id}/members/${await memberId(a.id, person.person.id)}/keys`, {
      token: adminA.token,
      body: { key_name: 'for P' },
    });
    const token = minted.body.token;
    const listed = await api<{ items: Array<{ id: string }> }>('GET', '/apikeys', { token });
    expect(listed.body.items.map((k) => k.id)).toEqual([minted.body.id]);
    expect((await api('DELETE', `/apikeys/${own.body.id}`, { token })).status).toBe(404);
    expect((await api('POST', `/apikeys/${own.body.id}/rotate`, { token, body: {} })).status).toBe(404);
    expect((await api('GET', '/me', { token: own.body.token })).status).toBe(200);
  });

  it('an invitation of an existing person’s email accepted with its token alone answers 403', async () => {
    const a = await createNetworkRow();
    const adminA = await personKey([{ networkId: a.id, role: 'administrator' }]);
    const person = await personKey([{ networkId: (await createNetworkRow()).id, role: 'administrator' }]);
    const invitation = await api<{ token: string }>('POST', `/networks/${a.id}/invitations`, {
      token: adminA.token,
      body: { email: person.person.email, role: 'administrator' },
    });
    const accepted = await api('POST', '/invitations/accept', { token: invitation.body.token, body: {} });
    expect(accepted.status).toBe(403);
  });
});

describe('3. and 4. the operator’s keys: never a network’s, and scoped ones work as advertised', () => {
  it('a key a super_user made for itself with scopes on A works there, and A’s administrator can neither see nor rotate it', async () => {
    const a = await createNetworkRow();
    const adminA = await personKey([{ networkId: a.id, role: 'administrator' }]);
    const scoped = await api<Key>('POST', '/apikeys', { body: { key_name: 'operator on A', scopes: [{ network_id: a.id, role: 'administrator' }] } });
    expect(scoped.status).toBe(201);
    const me = await api<Me>('GET', '/me', { token: scoped.body.token });
    expect(me.body.scopes).toEqual(scoped.body.scopes);
    expect(me.body.scopes).toEqual([{ network_id: a.id, role: 'administrator' }]);
    expect((await api('PATCH', `/networks/${a.id}`, { token: scoped.body.token, body: { name: 'Renamed by the operator' } })).status).toBe(200);
    const listed = await api<{ items: Array<{ id: string }> }>('GET', `/networks/${a.id}/apikeys`, { token: adminA.token });
    expect(listed.body.items.map((k) => k.id)).not.toContain(scoped.body.id);
    expect((await api('POST', `/networks/${a.id}/apikeys/${scoped.body.id}/rotate`, { token: adminA.token, body: {} })).status).toBe(404);
    expect((await api('DELETE', `/networks/${a.id}/apikeys/${scoped.body.id}`, { token: adminA.token })).status).toBe(404);
  });

  it('such a key stops working with its owner’s last super_user key', async () => {
    const a = await createNetworkRow();
    const operator = await createPerson();
    const superKey = await mintApiKey({
      tx: database(),
      name: 'su',
      owner: { userId: operator.id },
      creator: 'platform',
      superUser: true,
    });
    const scoped = await api<Key>('POST', '/apikeys', {
      token: superKey.token,
      body: { key_name: 'scoped', scopes: [{ network_id: a.id, role: 'read_only' }] },
    });
    expect((await api<Me>('GET', '/me', { token: scoped.body.token })).body.scopes).toEqual([{ network_id: a.id, role: 'read_only' }]);
    expect((await api('DELETE', `/apikeys/${superKey.key.id}`, { token: superKey.token })).status).toBe(200);
    expect((await api<Me>('GET', '/me', { token: scoped.body.token })).body.scopes).toEqual([]);
    expect((await api('GET', `/networks/${a.id}`, { token: scoped.body.token })).status).toBe(403);
  });

  it('a scope on a network that does not exist is 400, never a dead key', async () => {
    const res = await api('POST', '/apikeys', {
      body: { key_name: 'x', scopes: [{ network_id: 'net_01jd8x6v2c9q7r5t3w1y0zabcd', role: 'read_only' }] },
    });
    expect(res.status).toBe(400);
  });
});

describe('5. a replay is a request', () => {
  it('after a demotion, replaying the creation of a service account or a webhook answers 403, not the token or secret', async () => {
    const network = await createNetworkRow();
    const owner = await personKey([{ networkId: network.id, role: 'administrator' }]);
    const admin = await personKey([{ networkId: network.id, role: 'administrator' }]);
    const account = { path: `/networks/${network.id}/service-accounts`, body: { name: 'ci', role: 'administrator' } };
    const webhook = { path: `/networks/${network.id}/webhooks`, body: { url: 'https://93.184.216.20/hooks', events: ['offer.accepted'] } };
    const keys = { account: randomUUID(), webhook: randomUUID() };
    expect((await api('POST', account.path, { token: admin.token, body: account.body, headers: { 'idempotency-key': keys.account } })).status).toBe(
      201,
    );
    expect((await api('POST', webhook.path, { token: admin.token, body: webhook.body, headers: { 'idempotency-key': keys.webhook } })).status).toBe(
      201,
    );
    const replay = await api('POST', account.path, { token: admin.token, body: account.body, headers: { 'idempotency-key': keys.account } });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');

    const demoted = await api('PATCH', `/networks/${network.id}/members/${await memberId(network.id, admin.person.id)}`, {
      token: owner.token,
      body: { role: 'read_only' },
    });
    expect(demoted.status).toBe(200);
    for (const [request, key] of [
      [account, keys.account],
      [webhook, keys.webhook],
    ] as const) {
      const res = await api<{ token?: string; secret?: string }>('POST', request.path, {
        token: admin.token,
        body: request.body,
        headers: { 'idempotency-key': key },
      });
      expect(res.status).toBe(403);
      expect(res.text).not.toMatch(/sk_test_|whsec_/);
    }
  });

  it('a key that lost a network cannot replay the creation of a key on it', async () => {
    const { a, adminA, both } = await keyOnTwoNetworks({ a: 'administrator', b: 'administrator' });
    const body = { key_name: 'on A', scopes: [{ network_id: a.id, role: 'administrator' }] };
    const headers = { 'idempotency-key': randomUUID() };
    expect((await api('POST', '/apikeys', { token: both.token, body, headers })).status).toBe(201);
    // A's administrator takes network A from the calling key (it keeps B).
    expect((await api('DELETE', `/networks/${a.id}/apikeys/${both.key.id}`, { token: adminA.token })).status).toBe(200);
    const replay = await api('POST', '/apikeys', { token: both.token, body, headers });
    expect(replay.status).toBe(403);
    expect(replay.text).not.toContain('sk_test_');
  });
});

describe('10. a network’s view of its keys shows nothing of other networks', () => {
  it('lists a member’s key with only its scope on this network', async () => {
    const { a, b, adminA, both } = await keyOnTwoNetworks({ a: 'read_only', b: 'administrator' });
    const listed = await api<{ items: Array<{ id: string; scopes: unknown }> }>('GET', `/networks/${a.id}/apikeys`, { token: adminA.token });
    expect(listed.body.items.find((k) => k.id === both.key.id)!.scopes).toEqual([{ network_id: a.id, role: 'read_only' }]);
    expect(listed.text).not.toContain(b.id);
  });
});
