import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type DbHandle } from '@/db/client';
import { generateApiKeyToken } from '@/server/auth/tokens';
import { api, type Problem } from '@/tests/support/api';
import { startServerBehindProxy } from '@/tests/support/pg-proxy';
import type { ServerProcess } from '@/tests/support/server-process';

/**
 * The hardest case for an Idempotency-Key: the POST's transaction COMMITs on
 * Postgres, but the acknowledgement never reaches the service (the connection
 * dies in between), so the client is told 503. Its retry with the same key must
 * replay the 201 of the campaign that exists — not create a second one.
 * No worker runs, so only the request's own transaction COMMITs while the proxy is armed.
 */
const token = generateApiKeyToken('test');
let own: Awaited<ReturnType<typeof startServerBehindProxy>>;
let server: ServerProcess;
let proxy: Awaited<ReturnType<typeof startServerBehindProxy>>['proxy'];
let db: DbHandle;

beforeAll(async () => {
  own = await startServerBehindProxy('commitlost', token);
  ({ server, proxy } = own);
  db = connect(own.database.url, { max: 1 });
});

afterAll(async () => {
  await db?.close();
  await own?.stop();
});

describe('Idempotency-Key when the COMMIT acknowledgement is lost', () => {
  it('answers 503, and the retry with the same key replays the campaign that was committed', { timeout: 60_000 }, async () => {
    const call = <T>(method: string, path: string, body: unknown, key?: string) =>
      api<T>(method, path, { token, baseUrl: server.url, body, headers: key ? { 'idempotency-key': key } : {} });
    const networkId = (await call<{ id: string }>('POST', '/networks', { name: 'Commit lost' })).body.id;
    const advertiserId = (await call<{ id: string }>('POST', `/networks/${networkId}/advertisers`, { name: 'Acme' })).body.id;
    const body = { name: `Spring ${randomUUID()}`, advertiser_id: advertiserId };
    const key = randomUUID();
    const campaignsNamed = async () =>
      (await db.db.execute<{ id: string }>(sql`select id from campaigns where network_id = ${networkId} and name = ${body.name}`)).map((r) => r.id);

    proxy.loseNextCommitAcknowledgement();
    const first = await call<Problem>('POST', `/networks/${networkId}/campaigns`, body, key);
    expect(proxy.lostAcknowledgements()).toBe(1);
    expect(first.status).toBe(503);
    expect(first.body.type).toMatch(/\/errors\/service-unavailable$/);
    expect(first.headers.get('retry-after')).not.toBeNull();
    // The transaction did commit: the campaign exists, and the key holds its answer.
    const committed = await campaignsNamed();
    expect(committed).toHaveLength(1);

    const retry = await call<{ id: string; name: string }>('POST', `/networks/${networkId}/campaigns`, body, key);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.id).toBe(committed[0]);
    expect(retry.headers.get('etag')).not.toBeNull();
    expect(await campaignsNamed()).toEqual(committed);

    // Without the key, the same body is a new operation, and runs.
    const fresh = await call<{ id: string }>('POST', `/networks/${networkId}/campaigns`, body, randomUUID());
    expect(fresh.status).toBe(201);
    expect(fresh.body.id).not.toBe(committed[0]);
  });
});
