import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { apiKeys, memberships } from '@/db/schema';
import { generateApiKeyToken } from '@/server/auth/tokens';
import { api, expectProblem } from '@/tests/support/api';
import { createNetworkRow, personKey, serviceAccountKey, useTestDatabase } from '@/tests/support/fixtures';

useTestDatabase();

describe('authentication (401)', () => {
  it('refuses a request without Authorization', async () => {
    const body = expectProblem(await api('GET', '/me', { token: null }), 401, 'unauthorized');
    expect(body.detail).toMatch(/Missing Authorization/);
  });

  it('refuses a header that is not a Bearer credential', async () => {
    const res = await api('GET', '/me', { token: null, headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    expectProblem(res, 401, 'unauthorized');
  });

  it('refuses a malformed key', async () => {
    expectProblem(await api('GET', '/me', { token: 'not-a-key' }), 401, 'unauthorized');
  });

  it('refuses a well-formed key that does not exist', async () => {
    const body = expectProblem(await api('GET', '/me', { token: generateApiKeyToken('test') }), 401, 'unauthorized');
    expect(body.detail).toBe('Invalid API key.');
  });

  it('refuses an expired key, from the moment it expires', async () => {
    const network = await createNetworkRow();
    const { token, key } = await personKey([{ networkId: network.id, role: 'administrator' }], {
      expiresAt: new Date(Date.now() + 60_000),
    });
    expect((await api('GET', '/me', { token })).status).toBe(200);
    await database()
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1) })
      .where(eq(apiKeys.id, key.id));
    const body = expectProblem(await api('GET', '/me', { token }), 401, 'unauthorized');
    expect(body.detail).toMatch(/expired/);
  });

  it('refuses a revoked key on the very next request', async () => {
    const network = await createNetworkRow();
    const { token, key } = await personKey([{ networkId: network.id, role: 'administrator' }]);
    expect((await api('GET', `/networks/${network.id}`, { token })).status).toBe(200);
    await database().update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, key.id));
    const body = expectProblem(await api('GET', `/networks/${network.id}`, { token }), 401, 'unauthorized');
    expect(body.detail).toMatch(/revoked/);
  });
});

describe('authorization (403) and visibility (404)', () => {
  it('answers 403 for a network outside the key’s scopes', async () => {
    const mine = await createNetworkRow();
    const theirs = await createNetworkRow();
    const { token } = await personKey([{ networkId: mine.id, role: 'administrator' }]);
    expectProblem(await api('GET', `/networks/${theirs.id}`, { token }), 403, 'forbidden');
    expectProblem(await api('GET', `/networks/${theirs.id}/events`, { token }), 403, 'forbidden');
    expectProblem(await api('PATCH', `/networks/${theirs.id}`, { token, body: { name: 'x' } }), 403, 'forbidden');
  });

  it('answers 403 (not 404) for an unknown network id to a scoped key, so ids are not probed', async () => {
    const mine = await createNetworkRow();
    const { token } = await personKey([{ networkId: mine.id, role: 'administrator' }]);
    expectProblem(await api('GET', '/networks/net_00000000000000000000000000', { token }), 403, 'forbidden');
  });

  it('answers 404 to a super_user for a network that does not exist', async () => {
    expectProblem(await api('GET', '/networks/net_00000000000000000000000000'), 404, 'not-found');
  });

  it('lets read_only read but not write', async () => {
    const network = await createNetworkRow();
    const { token } = await personKey([{ networkId: network.id, role: 'read_only' }]);
    expect((await api('GET', `/networks/${network.id}`, { token })).status).toBe(200);
    const body = expectProblem(await api('PATCH', `/networks/${network.id}`, { token, body: { name: 'Renamed' } }), 403, 'forbidden');
    expect(body.detail).toMatch(/administrator/);
  });

  it('only lets super_user keys create networks', async () => {
    const network = await createNetworkRow();
    const { token } = await personKey([{ networkId: network.id, role: 'administrator' }]);
    expectProblem(await api('POST', '/networks', { token, body: { name: 'Mine now' } }), 403, 'forbidden');
  });

  it('GET /me names who the key belongs to: the person or the service account, not the key', async () => {
    const network = await createNetworkRow();
    const { token, person } = await personKey([{ networkId: network.id, role: 'read_only' }]);
    const me = await api<{ key_name: string; owner: unknown }>('GET', '/me', { token });
    expect(me.body.key_name).toBe('test key');
    expect(me.body.owner).toEqual({ type: 'person', id: person.id, name: person.name });
    const account = await serviceAccountKey(network.id, 'read_only');
    expect((await api<{ owner: unknown }>('GET', '/me', { token: account.token })).body.owner).toEqual({
      type: 'service_account',
      id: account.serviceAccount.id,
      name: 'integration',
    });
  });

  it('acts with min(key scope, current membership): demotion and removal bite on the next request', async () => {
    const network = await createNetworkRow();
    const { token, person } = await personKey([{ networkId: network.id, role: 'administrator' }]);
    const me = await api<{ scopes: unknown[] }>('GET', '/me', { token });
    expect(me.body.scopes).toEqual([{ network_id: network.id, role: 'administrator' }]);

    await database().update(memberships).set({ role: 'read_only' }).where(eq(memberships.userId, person.id));
    expect((await api<{ scopes: unknown[] }>('GET', '/me', { token })).body.scopes).toEqual([{ network_id: network.id, role: 'read_only' }]);
    expectProblem(await api('PATCH', `/networks/${network.id}`, { token, body: { name: 'x' } }), 403, 'forbidden');

    await database().update(memberships).set({ status: 'removed' }).where(eq(memberships.userId, person.id));
    expectProblem(await api('GET', `/networks/${network.id}`, { token }), 403, 'forbidden');
    expect((await api<{ scopes: unknown[] }>('GET', '/me', { token })).body.scopes).toEqual([]);
  });

  it('never lets a key exceed its own scope even when the person is an administrator', async () => {
    const network = await createNetworkRow();
    const { token } = await personKey([{ networkId: network.id, role: 'administrator', keyRole: 'read_only' }]);
    expectProblem(await api('PATCH', `/networks/${network.id}`, { token, body: { name: 'x' } }), 403, 'forbidden');
  });

  it('treats service account keys like any other key', async () => {
    const network = await createNetworkRow();
    const { token } = await serviceAccountKey(network.id, 'read_only');
    const me = await api<{ scopes: unknown[]; super_user: boolean }>('GET', '/me', { token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ super_user: false, scopes: [{ network_id: network.id, role: 'read_only' }] });
    expectProblem(await api('PATCH', `/networks/${network.id}`, { token, body: { name: 'x' } }), 403, 'forbidden');
  });
});

describe('GET /v1/me', () => {
  it('describes the calling key', async () => {
    const res = await api<Record<string, unknown>>('GET', '/me');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ key_name: 'bootstrap', super_user: true, scopes: [] });
    expect(res.headers.get('ratelimit-limit')).toBeTruthy();
    expect(res.headers.get('request-id')).toBeTruthy();
  });
});
