import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { apiKeys, auditLog } from '@/db/schema';
import { api, expectProblem, type Page, type Problem } from '@/tests/support/api';
import { adminOfNewNetwork, createNetworkRow, personKey, useTestDatabase } from '@/tests/support/fixtures';

useTestDatabase();

interface ServiceAccount {
  id: string;
  network_id: string;
  name: string;
  role: string;
  status: 'active' | 'deleted';
  created_at: string;
  deleted_at: string | null;
}
interface CreatedKey {
  id: string;
  key_name: string;
  token: string;
  environment: string;
  super_user: boolean;
  scopes: Array<{ network_id: string; role: string }>;
  owner: { type: string; id: string };
  status: string;
  expires_at: string | null;
}
type CreatedServiceAccount = ServiceAccount & { api_key: CreatedKey };

async function createServiceAccount(networkId: string, token: string, body: Record<string, unknown> = { name: 'CI bot', role: 'read_only' }) {
  const res = await api<CreatedServiceAccount>('POST', `/networks/${networkId}/service-accounts`, { token, body });
  expect(res.status).toBe(201);
  return res.body;
}

describe('POST /networks/{n}/service-accounts', () => {
  it('creates the account and its first key in one answer; the token works and shows the scope on /me', async () => {
    const { network, token, key } = await adminOfNewNetwork();
    const res = await api<CreatedServiceAccount>('POST', `/networks/${network.id}/service-accounts`, {
      token,
      body: { name: '  Ingest bot ', role: 'administrator', key_name: 'ingest' },
    });
    expect(res.status).toBe(201);
    const sa = res.body;
    expect(sa.id).toMatch(/^sa_[0-9a-z]{26}$/);
    expect(sa).toMatchObject({ network_id: network.id, name: 'Ingest bot', role: 'administrator', status: 'active', deleted_at: null });
    expect(new Date(sa.created_at).toISOString()).toBe(sa.created_at);
    expect(sa.api_key).toMatchObject({
      key_name: 'ingest',
      environment: 'test',
      super_user: false,
      scopes: [{ network_id: network.id, role: 'administrator' }],
      owner: { type: 'service_account', id: sa.id },
      status: 'active',
      expires_at: null,
    });
    expect(sa.api_key.token).toMatch(/^sk_test_[0-9A-Za-z]{32,}$/);

    const me = await api<{ key_id: string; key_name: string; super_user: boolean; scopes: unknown[] }>('GET', '/me', { token: sa.api_key.token });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      key_id: sa.api_key.id,
      key_name: 'ingest',
      mode: 'test',
      super_user: false,
      session: false,
      expires_at: null,
      scopes: [{ network_id: network.id, role: 'administrator' }],
      owner: { type: 'service_account', id: sa.id, name: 'Ingest bot' },
    });

    // The key was minted by the calling key.
    const [row] = await database().select().from(apiKeys).where(eq(apiKeys.id, sa.api_key.id));
    expect(row!.createdByKeyId).toBe(key.id);
  });

  it('names the first key "default" when key_name is omitted, and honours expires_at', async () => {
    const { network, token } = await adminOfNewNetwork();
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const sa = await createServiceAccount(network.id, token, { name: 'Nightly', role: 'read_only', expires_at: expiresAt });
    expect(sa.api_key.key_name).toBe('default');
    expect(sa.api_key.expires_at).toBe(expiresAt);
    expect(sa.api_key.scopes).toEqual([{ network_id: network.id, role: 'read_only' }]);
  });

  it('gives a read_only account a key that can read but not write', async () => {
    const { network, token } = await adminOfNewNetwork();
    const sa = await createServiceAccount(network.id, token);
    expect((await api('GET', `/networks/${network.id}`, { token: sa.api_key.token })).status).toBe(200);
    expectProblem(await api('PATCH', `/networks/${network.id}`, { token: sa.api_key.token, body: { name: 'x' } }), 403, 'forbidden');
  });

  it('never returns the token again: reads show the account without any key or token', async () => {
    const { network, token } = await adminOfNewNetwork();
    const sa = await createServiceAccount(network.id, token);
    const got = await api<ServiceAccount>('GET', `/networks/${network.id}/service-accounts/${sa.id}`, { token });
    expect(got.status).toBe(200);
    const { api_key: _key, ...account } = sa;
    expect(got.body).toEqual(account);
    const list = await api<Page<ServiceAccount>>('GET', `/networks/${network.id}/service-accounts`, { token });
    expect(list.text).not.toContain(sa.api_key.token);
    expect(got.text).not.toContain(sa.api_key.token);
    expect(got.text).not.toMatch(/token|sk_test_/);
  });

  it('rejects a blank name, a bad role, a blank key_name, a past expires_at and unknown fields with 400', async () => {
    const { network, token } = await adminOfNewNetwork();
    const path = `/networks/${network.id}/service-accounts`;
    const blank = expectProblem(await api('POST', path, { token, body: { name: '  ', role: 'read_only' } }), 400, 'bad-request');
    expect(blank.errors).toEqual([{ path: 'name', message: 'name must not be blank.' }]);
    const missing = expectProblem(await api('POST', path, { token, body: {} }), 400, 'bad-request');
    expect(missing.errors!.map((e) => e.path).sort()).toEqual(['name', 'role']);
    const badRole = expectProblem(await api('POST', path, { token, body: { name: 'x', role: 'owner' } }), 400, 'bad-request');
    expect(badRole.errors![0]!.path).toBe('role');
    const blankKey = expectProblem(await api('POST', path, { token, body: { name: 'x', role: 'read_only', key_name: ' ' } }), 400, 'bad-request');
    expect(blankKey.errors![0]!.path).toBe('key_name');
    const past = expectProblem(
      await api('POST', path, { token, body: { name: 'x', role: 'read_only', expires_at: '2020-01-01T00:00:00Z' } }),
      400,
      'bad-request',
    );
    expect(past.errors![0]!.path).toBe('expires_at');
    const unknown = expectProblem(await api('POST', path, { token, body: { name: 'x', role: 'read_only', scopes: [] } }), 400, 'bad-request');
    expect(unknown.errors![0]!.message).toMatch(/scopes/);
    // Nothing was created by the refused requests.
    const list = await api<Page<ServiceAccount>>('GET', path, { token });
    expect(list.body.items).toEqual([]);
  });

  it('answers 401 without a valid key', async () => {
    const { network } = await adminOfNewNetwork();
    expectProblem(
      await api('POST', `/networks/${network.id}/service-accounts`, { token: null, body: { name: 'x', role: 'read_only' } }),
      401,
      'unauthorized',
    );
    expectProblem(await api('GET', `/networks/${network.id}/service-accounts`, { token: 'sk_test_' + 'a'.repeat(40) }), 401, 'unauthorized');
  });

  it('answers 403 to read_only keys and to keys of another network', async () => {
    const { network } = await adminOfNewNetwork();
    const readOnly = await personKey([{ networkId: network.id, role: 'read_only' }]);
    expectProblem(
      await api('POST', `/networks/${network.id}/service-accounts`, { token: readOnly.token, body: { name: 'x', role: 'read_only' } }),
      403,
      'forbidden',
    );
    const other = await adminOfNewNetwork();
    expectProblem(
      await api('POST', `/networks/${network.id}/service-accounts`, { token: other.token, body: { name: 'x', role: 'read_only' } }),
      403,
      'forbidden',
    );
    expectProblem(await api('GET', `/networks/${network.id}/service-accounts`, { token: other.token }), 403, 'forbidden');
  });

  it('lets a super_user create one in any network', async () => {
    const network = await createNetworkRow();
    const res = await api<CreatedServiceAccount>('POST', `/networks/${network.id}/service-accounts`, {
      body: { name: 'Ops', role: 'administrator' },
    });
    expect(res.status).toBe(201);
    expect(res.body.api_key.scopes).toEqual([{ network_id: network.id, role: 'administrator' }]);
  });

  it('writes service_account.created and api_key.created audit rows on the same transaction', async () => {
    const { network, token, key } = await adminOfNewNetwork();
    const sa = await createServiceAccount(network.id, token, { name: 'Audited', role: 'read_only' });
    const rows = await database().select().from(auditLog).where(eq(auditLog.networkId, network.id)).orderBy(auditLog.id);
    expect(rows.map((r) => [r.action, r.targetType, r.targetId, r.actorKeyId])).toEqual([
      ['service_account.created', 'service_account', sa.id, key.id],
      ['api_key.created', 'api_key', sa.api_key.id, key.id],
    ]);
    expect(JSON.stringify(rows)).not.toContain(sa.api_key.token);
  });
});

describe('GET /networks/{n}/service-accounts[/{id}]', () => {
  it('lets read_only keys list and read, pages by id, and hides other networks’ accounts (404)', async () => {
    const { network, token } = await adminOfNewNetwork();
    const created: ServiceAccount[] = [];
    for (let i = 0; i < 3; i++) created.push(await createServiceAccount(network.id, token, { name: `Bot ${i}`, role: 'read_only' }));
    const reader = await personKey([{ networkId: network.id, role: 'read_only' }]);

    const first = await api<Page<ServiceAccount>>('GET', `/networks/${network.id}/service-accounts?limit=2`, { token: reader.token });
    expect(first.status).toBe(200);
    expect(first.body.items.map((s) => s.name)).toEqual(['Bot 0', 'Bot 1']);
    expect(first.body.next_cursor).toBeTruthy();
    const second = await api<Page<ServiceAccount>>(
      'GET',
      `/networks/${network.id}/service-accounts?limit=2&cursor=${encodeURIComponent(first.body.next_cursor!)}`,
      { token: reader.token },
    );
    expect(second.body.items.map((s) => s.name)).toEqual(['Bot 2']);
    expect(second.body.next_cursor).toBeNull();

    const got = await api<ServiceAccount>('GET', `/networks/${network.id}/service-accounts/${created[1]!.id}`, { token: reader.token });
    expect(got.status).toBe(200);
    expect(got.body.name).toBe('Bot 1');

    const other = await adminOfNewNetwork();
    const foreign = await createServiceAccount(other.network.id, other.token);
    expectProblem(await api('GET', `/networks/${network.id}/service-accounts/${foreign.id}`, { token }), 404, 'not-found');
    expectProblem(await api('GET', `/networks/${network.id}/service-accounts/sa_00000000000000000000000000`, { token }), 404, 'not-found');
    expectProblem(await api('GET', `/networks/${network.id}/service-accounts/not-an-id`, { token }), 404, 'not-found');
    // The other network's cursor does not work here.
    const otherCursor = first.body.next_cursor!;
    expectProblem(
      await api('GET', `/networks/${other.network.id}/service-accounts?cursor=${encodeURIComponent(otherCursor)}`, { token: other.token }),
      400,
      'bad-request',
    );
  });

  it('rejects a bad status filter and a bad limit with 400', async () => {
    const { network, token } = await adminOfNewNetwork();
    expectProblem(await api('GET', `/networks/${network.id}/service-accounts?status=gone`, { token }), 400, 'bad-request');
    expectProblem(await api('GET', `/networks/${network.id}/service-accounts?limit=0`, { token }), 400, 'bad-request');
  });
});

describe('DELETE /networks/{n}/service-accounts/{id}', () => {
  it('marks it deleted, revokes all its keys (401 on the next request), and 409s a second delete', async () => {
    const { network, token, key } = await adminOfNewNetwork();
    const sa = await createServiceAccount(network.id, token, { name: 'Doomed', role: 'administrator' });
    const second = await api<CreatedKey>('POST', `/networks/${network.id}/service-accounts/${sa.id}/keys`, { token, body: { key_name: 'second' } });
    expect(second.status).toBe(201);
    for (const t of [sa.api_key.token, second.body.token]) expect((await api('GET', '/me', { token: t })).status).toBe(200);

    const del = await api<ServiceAccount>('DELETE', `/networks/${network.id}/service-accounts/${sa.id}`, { token });
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ id: sa.id, status: 'deleted' });
    expect(new Date(del.body.deleted_at!).toISOString()).toBe(del.body.deleted_at);

    for (const t of [sa.api_key.token, second.body.token]) {
      const body = expectProblem(await api('GET', '/me', { token: t }), 401, 'unauthorized');
      expect(body.detail).toMatch(/revoked|invalid/i);
    }
    const keys = await database().select().from(apiKeys).where(eq(apiKeys.serviceAccountId, sa.id));
    expect(keys).toHaveLength(2);
    expect(keys.every((k) => k.revokedAt !== null)).toBe(true);

    expectProblem(await api('DELETE', `/networks/${network.id}/service-accounts/${sa.id}`, { token }), 409, 'conflict');
    expectProblem(
      await api('POST', `/networks/${network.id}/service-accounts/${sa.id}/keys`, { token, body: { key_name: 'late' } }),
      409,
      'conflict',
    );

    // Excluded from the default list, listed with status=deleted, still readable by id.
    const active = await api<Page<ServiceAccount>>('GET', `/networks/${network.id}/service-accounts`, { token });
    expect(active.body.items.map((s) => s.id)).not.toContain(sa.id);
    const deleted = await api<Page<ServiceAccount>>('GET', `/networks/${network.id}/service-accounts?status=deleted`, { token });
    expect(deleted.body.items.map((s) => s.id)).toEqual([sa.id]);
    const got = await api<ServiceAccount>('GET', `/networks/${network.id}/service-accounts/${sa.id}`, { token });
    expect(got.body.status).toBe('deleted');

    const rows = await database().select().from(auditLog).where(eq(auditLog.networkId, network.id)).orderBy(auditLog.id);
    const tail = rows.slice(-3).map((r) => [r.action, r.targetId, r.actorKeyId]);
    expect(tail).toEqual([
      ['service_account.deleted', sa.id, key.id],
      ...[sa.api_key.id, second.body.id].sort().map((id) => ['api_key.revoked', id, key.id]),
    ]);
  });

  it('lets exactly one of five concurrent deletes win; the others get 409', async () => {
    const { network, token } = await adminOfNewNetwork();
    const sa = await createServiceAccount(network.id, token);
    const results = await Promise.all(Array.from({ length: 5 }, () => api('DELETE', `/networks/${network.id}/service-accounts/${sa.id}`, { token })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    const rows = await database().select().from(auditLog).where(eq(auditLog.targetId, sa.id));
    expect(rows.filter((r) => r.action === 'service_account.deleted')).toHaveLength(1);
  });

  it('answers 404 for another network’s account and 403 to read_only keys', async () => {
    const { network, token } = await adminOfNewNetwork();
    const sa = await createServiceAccount(network.id, token);
    const other = await adminOfNewNetwork();
    expectProblem(await api('DELETE', `/networks/${other.network.id}/service-accounts/${sa.id}`, { token: other.token }), 404, 'not-found');
    expectProblem(await api('DELETE', `/networks/${network.id}/service-accounts/${sa.id}`, { token: other.token }), 403, 'forbidden');
    const reader = await personKey([{ networkId: network.id, role: 'read_only' }]);
    expectProblem(await api('DELETE', `/networks/${network.id}/service-accounts/${sa.id}`, { token: reader.token }), 403, 'forbidden');
    expect((await api('GET', '/me', { token: sa.api_key.token })).status).toBe(200);
  });
});

describe('POST /networks/{n}/service-accounts/{id}/keys', () => {
  it('mints another key with the account’s role by default, or a lower role', async () => {
    const { network, token } = await adminOfNewNetwork();
    const sa = await createServiceAccount(network.id, token, { name: 'Multi', role: 'administrator' });
    const same = await api<CreatedKey>('POST', `/networks/${network.id}/service-accounts/${sa.id}/keys`, { token, body: { key_name: 'deploy' } });
    expect(same.status).toBe(201);
    expect(same.body).toMatchObject({
      key_name: 'deploy',
      scopes: [{ network_id: network.id, role: 'administrator' }],
      owner: { type: 'service_account', id: sa.id },
    });
    expect(same.body.token).toMatch(/^sk_test_/);
    const lower = await api<CreatedKey>('POST', `/networks/${network.id}/service-accounts/${sa.id}/keys`, {
      token,
      body: { key_name: 'reporting', role: 'read_only' },
    });
    expect(lower.status).toBe(201);
    const me = await api<{ scopes: unknown[] }>('GET', '/me', { token: lower.body.token });
    expect(me.body.scopes).toEqual([{ network_id: network.id, role: 'read_only' }]);
  });

  it('refuses a role above the account’s (403), bad input (400), other networks’ accounts (404)', async () => {
    const { network, token } = await adminOfNewNetwork();
    const sa = await createServiceAccount(network.id, token, { name: 'Reader', role: 'read_only' });
    const path = `/networks/${network.id}/service-accounts/${sa.id}/keys`;
    const above = expectProblem(await api('POST', path, { token, body: { key_name: 'x', role: 'administrator' } }), 403, 'forbidden');
    expect(above.detail).toMatch(/account's role/);
    expectProblem(await api('POST', path, { token, body: { key_name: ' ' } }), 400, 'bad-request');
    expectProblem(await api('POST', path, { token, body: {} }), 400, 'bad-request');
    expectProblem(await api('POST', path, { token, body: { key_name: 'x', role: 'root' } }), 400, 'bad-request');
    expectProblem(await api('POST', path, { token, body: { key_name: 'x', super_user: true } }), 400, 'bad-request');
    const other = await adminOfNewNetwork();
    expectProblem(
      await api('POST', `/networks/${other.network.id}/service-accounts/${sa.id}/keys`, { token: other.token, body: { key_name: 'x' } }),
      404,
      'not-found',
    );
    const reader = await personKey([{ networkId: network.id, role: 'read_only' }]);
    expectProblem(await api('POST', path, { token: reader.token, body: { key_name: 'x' } }), 403, 'forbidden');
  });

  it('a read_only key of the account reaches none of its keys above read_only (invariant 1), while its administrator key reaches them all', async () => {
    const { network, token } = await adminOfNewNetwork();
    const sa = await createServiceAccount(network.id, token, { name: 'Deployer', role: 'administrator' });
    const reader = await api<CreatedKey>('POST', `/networks/${network.id}/service-accounts/${sa.id}/keys`, {
      token,
      body: { key_name: 'reporting', role: 'read_only' },
    });
    expect(reader.status).toBe(201);
    const listed = async (as: string) => (await api<Page<{ id: string }>>('GET', '/apikeys', { token: as })).body.items.map((k) => k.id).sort();
    expect(await listed(reader.body.token)).toEqual([reader.body.id]);
    expect(await listed(sa.api_key.token)).toEqual([sa.api_key.id, reader.body.id].sort());
    for (const [method, path] of [
      ['GET', `/apikeys/${sa.api_key.id}`],
      ['POST', `/apikeys/${sa.api_key.id}/rotate`],
      ['DELETE', `/apikeys/${sa.api_key.id}`],
    ] as const) {
      expectProblem(await api(method, path, { token: reader.body.token, body: method === 'POST' ? {} : undefined }), 404, 'not-found');
    }
    // Nor may it make itself an administrator key of the account (rule 6), though the account is one.
    const wider = await api<Problem>('POST', '/apikeys', {
      token: reader.body.token,
      body: { key_name: 'wider', scopes: [{ network_id: network.id, role: 'administrator' }] },
    });
    expectProblem(wider, 403, 'forbidden');
    expect(wider.body.detail).toMatch(/rule 6/);
    expect((await api('GET', '/me', { token: sa.api_key.token })).status).toBe(200);
    expect(await listed(sa.api_key.token)).toEqual([sa.api_key.id, reader.body.id].sort());
  });

  it('lets an administrator service account’s key manage service accounts like any other key', async () => {
    const { network, token } = await adminOfNewNetwork();
    const admin = await createServiceAccount(network.id, token, { name: 'Provisioner', role: 'administrator' });
    const child = await createServiceAccount(network.id, admin.api_key.token, { name: 'Child', role: 'read_only' });
    expect(child.api_key.scopes).toEqual([{ network_id: network.id, role: 'read_only' }]);
  });
});
