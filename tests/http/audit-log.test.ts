import { describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { recordAudit } from '@/server/services/audit/record-audit';
import { api, expectProblem, type Page } from '@/tests/support/api';
import { adminOfNewNetwork, personKey, serviceAccountKey, useTestDatabase } from '@/tests/support/fixtures';

useTestDatabase();

interface AuditEntry {
  id: string;
  network_id: string;
  actor_key_id: string | null;
  action: string;
  target_type: string;
  target_id: string;
  data: Record<string, unknown>;
  occurred_at: string;
}
interface CreatedServiceAccount {
  id: string;
  api_key: { id: string; token: string };
}

async function auditPage(networkId: string, token: string, query = '') {
  const res = await api<Page<AuditEntry>>('GET', `/networks/${networkId}/audit-log${query}`, { token });
  expect(res.status).toBe(200);
  return res.body;
}

describe('GET /networks/{n}/audit-log', () => {
  it('lists the rows of service account changes in id order, with who did what', async () => {
    const { network, token, key } = await adminOfNewNetwork();
    const created = await api<CreatedServiceAccount>('POST', `/networks/${network.id}/service-accounts`, {
      token,
      body: { name: 'Audited bot', role: 'read_only' },
    });
    expect(created.status).toBe(201);
    const sa = created.body;
    expect((await api('DELETE', `/networks/${network.id}/service-accounts/${sa.id}`, { token })).status).toBe(200);

    const page = await auditPage(network.id, token);
    expect(page.next_cursor).toBeNull();
    expect(page.items.map((e) => [e.action, e.target_type, e.target_id])).toEqual([
      ['service_account.created', 'service_account', sa.id],
      ['api_key.created', 'api_key', sa.api_key.id],
      ['service_account.deleted', 'service_account', sa.id],
      ['api_key.revoked', 'api_key', sa.api_key.id],
    ]);
    const ids = page.items.map((e) => e.id);
    expect([...ids].sort()).toEqual(ids);
    for (const entry of page.items) {
      expect(Object.keys(entry).sort()).toEqual(['action', 'actor_key_id', 'data', 'id', 'network_id', 'occurred_at', 'target_id', 'target_type']);
      expect(entry.id).toMatch(/^aud_/);
      expect(entry).toMatchObject({ network_id: network.id, actor_key_id: key.id });
      expect(new Date(entry.occurred_at).toISOString()).toBe(entry.occurred_at);
    }
    expect(page.items[0]!.data).toEqual({ name: 'Audited bot', role: 'read_only' });
    expect(JSON.stringify(page)).not.toContain(sa.api_key.token);
  });

  it('filters by action, target_type and target_id, and pages within the filter', async () => {
    const { network, token } = await adminOfNewNetwork();
    const accounts: CreatedServiceAccount[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await api<CreatedServiceAccount>('POST', `/networks/${network.id}/service-accounts`, {
        token,
        body: { name: `Bot ${i}`, role: 'read_only' },
      });
      accounts.push(res.body);
    }

    const created = await auditPage(network.id, token, '?action=service_account.created&limit=2');
    expect(created.items.map((e) => e.target_id)).toEqual([accounts[0]!.id, accounts[1]!.id]);
    expect(created.next_cursor).toBeTruthy();
    const rest = await auditPage(network.id, token, `?action=service_account.created&limit=2&cursor=${encodeURIComponent(created.next_cursor!)}`);
    expect(rest.items.map((e) => e.target_id)).toEqual([accounts[2]!.id]);
    expect(rest.next_cursor).toBeNull();

    const keys = await auditPage(network.id, token, '?target_type=api_key');
    expect(keys.items.map((e) => e.target_id)).toEqual(accounts.map((a) => a.api_key.id));
    expect(keys.items.every((e) => e.action === 'api_key.created')).toBe(true);

    const one = await auditPage(network.id, token, `?target_type=service_account&target_id=${accounts[1]!.id}`);
    expect(one.items.map((e) => e.action)).toEqual(['service_account.created']);

    const none = await auditPage(network.id, token, '?action=member.removed');
    expect(none).toEqual({ items: [], next_cursor: null });

    // The cursor belongs to its filter: used without it (or with another) it is a 400.
    for (const query of ['', '?action=api_key.created', '?target_type=api_key']) {
      const sep = query ? '&' : '?';
      expectProblem(
        await api('GET', `/networks/${network.id}/audit-log${query}${sep}cursor=${encodeURIComponent(created.next_cursor!)}`, { token }),
        400,
        'bad-request',
      );
    }
  });

  it('filters by actor and time window, and lists newest first with order=desc', async () => {
    const { network, token, key } = await adminOfNewNetwork();
    const other = await personKey([{ networkId: network.id, role: 'administrator' }]);
    const byMe = await api<CreatedServiceAccount>('POST', `/networks/${network.id}/service-accounts`, {
      token,
      body: { name: 'Mine', role: 'read_only' },
    });
    const byOther = await api<CreatedServiceAccount>('POST', `/networks/${network.id}/service-accounts`, {
      token: other.token,
      body: { name: 'Theirs', role: 'read_only' },
    });

    const mine = await auditPage(network.id, token, `?actor_key_id=${key.id}&target_type=service_account`);
    expect(mine.items.map((e) => e.target_id)).toEqual([byMe.body.id]);
    const theirs = await auditPage(network.id, token, `?actor_key_id=${other.key.id}&target_type=service_account`);
    expect(theirs.items.map((e) => e.target_id)).toEqual([byOther.body.id]);

    const all = await auditPage(network.id, token);
    const newest = await auditPage(network.id, token, '?order=desc&limit=1');
    expect(newest.items.map((e) => e.id)).toEqual([all.items.at(-1)!.id]);
    const next = await auditPage(network.id, token, `?order=desc&limit=1&cursor=${encodeURIComponent(newest.next_cursor!)}`);
    expect(next.items.map((e) => e.id)).toEqual([all.items.at(-2)!.id]);

    // The window is inclusive at both ends, on the rows' own times.
    const second = all.items.find((e) => e.target_id === byOther.body.id && e.action === 'service_account.created')!;
    const at = encodeURIComponent(second.occurred_at);
    const from = await auditPage(network.id, token, `?since=${at}&target_type=service_account`);
    expect(from.items.map((e) => e.target_id)).toEqual([byOther.body.id]);
    const until = await auditPage(network.id, token, `?until=${at}&target_type=service_account`);
    expect(until.items.map((e) => e.target_id)).toContain(byOther.body.id);
    const future = await auditPage(network.id, token, '?since=2999-01-01T00:00:00Z');
    expect(future.items).toEqual([]);

    expectProblem(await api('GET', `/networks/${network.id}/audit-log?since=yesterday`, { token }), 400, 'bad-request');
    const backwards = await api<{ detail: string }>(
      'GET',
      `/networks/${network.id}/audit-log?since=2026-02-01T00:00:00Z&until=2026-01-01T00:00:00Z`,
      {
        token,
      },
    );
    expectProblem(backwards, 400, 'bad-request');
    expect(backwards.body.detail).toContain('since must not be after until');
    expectProblem(await api('GET', `/networks/${network.id}/audit-log?order=sideways`, { token }), 400, 'bad-request');
  });

  it('shows only this network’s rows', async () => {
    const a = await adminOfNewNetwork();
    const b = await adminOfNewNetwork();
    await database().transaction((tx) =>
      recordAudit({ tx, networkId: b.network.id, actorKeyId: null, action: 'network.updated', targetType: 'network', targetId: b.network.id }),
    );
    expect((await auditPage(a.network.id, a.token)).items).toEqual([]);
    const bRows = await auditPage(b.network.id, b.token);
    expect(bRows.items).toMatchObject([{ action: 'network.updated', actor_key_id: null, data: {} }]);
  });

  it('is for administrators: read_only keys and keys of other networks get 403, no key 401', async () => {
    const { network } = await adminOfNewNetwork();
    const reader = await personKey([{ networkId: network.id, role: 'read_only' }]);
    expectProblem(await api('GET', `/networks/${network.id}/audit-log`, { token: reader.token }), 403, 'forbidden');
    const saReader = await serviceAccountKey(network.id, 'read_only');
    expectProblem(await api('GET', `/networks/${network.id}/audit-log`, { token: saReader.token }), 403, 'forbidden');
    const other = await adminOfNewNetwork();
    expectProblem(await api('GET', `/networks/${network.id}/audit-log`, { token: other.token }), 403, 'forbidden');
    expectProblem(await api('GET', `/networks/${network.id}/audit-log`, { token: null }), 401, 'unauthorized');
    const saAdmin = await serviceAccountKey(network.id, 'administrator');
    expect((await api('GET', `/networks/${network.id}/audit-log`, { token: saAdmin.token })).status).toBe(200);
    expect((await api('GET', `/networks/${network.id}/audit-log`)).status).toBe(200); // super_user
  });

  it('rejects a bad target_type, a bad limit and unknown parameters with 400', async () => {
    const { network, token } = await adminOfNewNetwork();
    expectProblem(await api('GET', `/networks/${network.id}/audit-log?target_type=planet`, { token }), 400, 'bad-request');
    expectProblem(await api('GET', `/networks/${network.id}/audit-log?limit=201`, { token }), 400, 'bad-request');
    expectProblem(await api('GET', `/networks/${network.id}/audit-log?cursor=garbage`, { token }), 400, 'bad-request');
    expectProblem(await api('GET', `/networks/${network.id}/audit-log?colour=red`, { token }), 400, 'bad-request');
  });
});
