import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { idempotencyKeys, networks } from '@/db/schema';
import { pruneIdempotencyKeys } from '@/jobs/tasks/prune-idempotency-keys';
import { api } from '@/tests/support/api';
import { useTestDatabase } from '@/tests/support/fixtures';
import { reportReliability } from '@/tests/support/reliability';

useTestDatabase();

async function countNetworksNamed(name: string): Promise<number> {
  const rows = await database().select().from(networks).where(eq(networks.name, name));
  return rows.length;
}

describe('Idempotency-Key on POST', () => {
  it('replays the original response for a retry of the same request', async () => {
    const key = randomUUID();
    const name = `Idem ${key}`;
    const first = await api<{ id: string }>('POST', '/networks', { body: { name }, headers: { 'idempotency-key': key } });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();

    const retry = await api<{ id: string }>('POST', '/networks', { body: { name }, headers: { 'idempotency-key': key } });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(await countNetworksNamed(name)).toBe(1);
  });

  it('answers 422 when the key is reused for a different request', async () => {
    const key = randomUUID();
    await api('POST', '/networks', { body: { name: `A ${key}` }, headers: { 'idempotency-key': key } });
    const reused = await api<{ type: string }>('POST', '/networks', { body: { name: `B ${key}` }, headers: { 'idempotency-key': key } });
    expect(reused.status).toBe(422);
    expect(reused.body.type).toMatch(/\/errors\/idempotency-key-reused$/);
    expect(await countNetworksNamed(`B ${key}`)).toBe(0);
  });

  it('forgets a request refused before it ran (400), so the fixed request can use the same key', async () => {
    const key = randomUUID();
    const first = await api('POST', '/networks', { body: { name: ' ' }, headers: { 'idempotency-key': key } });
    expect(first.status).toBe(400);
    const again = await api('POST', '/networks', { body: { name: ' ' }, headers: { 'idempotency-key': key } });
    expect(again.status).toBe(400);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    const fixed = await api('POST', '/networks', { body: { name: `Fixed ${key}` }, headers: { 'idempotency-key': key } });
    expect(fixed.status).toBe(201);
  });

  it('remembers a refusal by the operation’s rules (404): the retry replays it, and a 500 never comes of it', async () => {
    const key = randomUUID();
    const path = '/apikeys/key_00000000000000000000000000/rotate';
    const first = await api('POST', path, { body: {}, headers: { 'idempotency-key': key } });
    expect(first.status).toBe(404);
    const retry = await api('POST', path, { body: {}, headers: { 'idempotency-key': key } });
    expect(retry.status).toBe(404);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
  });

  it('keeps keys per API key: the same key from two API keys are two operations', async () => {
    const key = randomUUID();
    const name = `PerKey ${key}`;
    const a = await api('POST', '/networks', { body: { name }, headers: { 'idempotency-key': key } });
    const other = await api<string>('POST', '/networks', { body: { name }, headers: { 'idempotency-key': key }, token: null });
    expect(a.status).toBe(201);
    expect(other.status).toBe(401);
  });

  it('20 concurrent same-key POSTs create one resource; every other answer is a replay or 409', async () => {
    const key = randomUUID();
    const name = `Race ${key}`;
    const results = await Promise.all(
      Array.from({ length: 20 }, () => api('POST', '/networks', { body: { name }, headers: { 'idempotency-key': key } })),
    );
    expect(await countNetworksNamed(name)).toBe(1);
    const fresh = results.filter((r) => r.status === 201 && !r.headers.get('idempotent-replayed'));
    expect(fresh).toHaveLength(1);
    for (const r of results) {
      if (r === fresh[0]) continue;
      expect(r.status === 409 || r.headers.get('idempotent-replayed') === 'true').toBe(true);
    }
    reportReliability('idempotency-race', {
      claim: '20 concurrent POSTs with one Idempotency-Key create one resource; every other answer is a replay or 409',
      figures: {
        requests: results.length,
        'resources created': 1,
        replays: results.filter((r) => r.headers.get('idempotent-replayed') === 'true').length,
        '409': results.filter((r) => r.status === 409).length,
      },
    });
  });

  it('rejects an unusable key with 400', async () => {
    const res = await api('POST', '/networks', { body: { name: 'x' }, headers: { 'idempotency-key': 'x'.repeat(300) } });
    expect(res.status).toBe(400);
  });

  it('forgets expired keys: the prune job deletes them and the key can be used anew', async () => {
    const key = randomUUID();
    await api('POST', '/networks', { body: { name: `Old ${key}` }, headers: { 'idempotency-key': key } });
    await database()
      .update(idempotencyKeys)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(idempotencyKeys.key, key));
    expect(await pruneIdempotencyKeys()).toBeGreaterThanOrEqual(1);
    const left = await database()
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.key, key)));
    expect(left).toHaveLength(0);
    const reuse = await api('POST', '/networks', { body: { name: `New ${key}` }, headers: { 'idempotency-key': key } });
    expect(reuse.status).toBe(201);
    expect(reuse.headers.get('idempotent-replayed')).toBeNull();
  });
});
