import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type DbHandle } from '@/db/client';
import { generateApiKeyToken } from '@/server/auth/tokens';
import { EVENT_DATA_EXAMPLES, EVENT_TYPE_NAMES } from '@/domain/events';
import { recordEvent } from '@/server/services/events/record-event';
import { api } from '@/tests/support/api';
import { startOwnServer, startWorkerProcess, type ServerProcess } from '@/tests/support/server-process';
import { startWebhookReceiver } from '@/tests/support/webhook-receiver';
import { reportReliability } from '@/tests/support/reliability';
import { waitFor } from '@/tests/support/until';

/**
 * Nothing lost: 1,000 events to a receiver that fails ~30 % of attempts, while
 * the worker process is killed outright (SIGKILL) twice mid-run and restarted.
 * The web process runs no worker; a separate `npm run worker` process does.
 */
const EVENTS = 1000;
const BATCH = 50;
const token = generateApiKeyToken('test');
const workerEnv = {
  WEBHOOK_ALLOW_PRIVATE: '1',
  // Quick retries, and enough of them that a 30 % failure rate never exhausts the schedule.
  WEBHOOK_RETRY_SCHEDULE: '0,0.2,0.5,1,1,1,1,1,1,1,1,1,1,1',
  WEBHOOK_TIMEOUT_MS: '1000',
  WORKER_CONCURRENCY: '10',
  // One network, and the subject is durability: every slot may go to it. With the default share (2 of
  // these 10) this run took 83 s instead of 48 s on a busy 2-core machine (docs/SCALING.md).
  WORKER_NETWORK_SHARE: '10',
};

let own: Awaited<ReturnType<typeof startOwnServer>>;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let db: DbHandle;
let secret = '';
let worker: ServerProcess | undefined;

beforeAll(async () => {
  receiver = await startWebhookReceiver(() => secret);
  own = await startOwnServer('durable', { BOOTSTRAP_SUPERUSER_TOKEN: token, WORKER: 'off', ...workerEnv });
  db = connect(own.databaseUrl, { max: 2 });
});

afterAll(async () => {
  await worker?.stop('SIGKILL');
  await db?.close();
  await own?.stop();
  await receiver?.close();
});

const startWorker = () => startWorkerProcess({ DATABASE_URL: own.databaseUrl, ...workerEnv });

describe('webhook durability', () => {
  it('delivers every one of 1,000 events through a flaky receiver and two SIGKILLed workers', { timeout: 300_000 }, async () => {
    const call = <T>(method: string, path: string, body?: unknown) => api<T>(method, path, { token, baseUrl: own.server.url, body });
    const networkId = (await call<{ id: string }>('POST', '/networks', { name: 'Durable' })).body.id;
    const hook = await call<{ id: string; secret: string }>('POST', `/networks/${networkId}/webhooks`, {
      url: receiver.url,
      events: EVENT_TYPE_NAMES,
    });
    expect(hook.status).toBe(201);
    secret = hook.body.secret;

    // ~25 % answered 500, ~5 % left hanging past the time-out; every answer is counted per delivery id.
    const acknowledged = new Map<string, number>();
    const bodies = new Map<string, Buffer>();
    let changedBytes = 0;
    receiver.respondWith((r) => {
      const id = String(r.headers['x-service-delivery']);
      const seen = bodies.get(id);
      if (seen && !seen.equals(r.raw)) changedBytes++;
      bodies.set(id, r.raw);
      const roll = Math.random();
      if (roll < 0.25) return 500;
      if (roll < 0.3) return 'hang';
      acknowledged.set(id, (acknowledged.get(id) ?? 0) + 1);
      return 200;
    });

    worker = await startWorker();
    const kills: number[] = [];
    const lockedByKilled: number[] = [];
    const recording = (async () => {
      for (let i = 0; i < EVENTS; i += BATCH) {
        await db.db.transaction(async (tx) => {
          for (let j = i; j < i + BATCH; j++) {
            const type = EVENT_TYPE_NAMES[j % EVENT_TYPE_NAMES.length]!;
            await recordEvent({ tx, networkId, type, data: EVENT_DATA_EXAMPLES[type] });
          }
        });
        await new Promise((r) => setTimeout(r, 50));
      }
    })();

    // Kill the worker outright while deliveries are in flight, twice, and start a new one each time.
    for (const afterAttempts of [300, 650]) {
      await waitFor(() => receiver.received.length >= afterAttempts, 120_000, `${afterAttempts} attempts`);
      await worker.stop('SIGKILL');
      kills.push(receiver.received.length);
      const [locked] = await db.db.execute<{ n: number }>(
        sql`select count(*)::int as n from graphile_worker._private_jobs where locked_by is not null`,
      );
      lockedByKilled.push(locked!.n);
      worker = await startWorker();
    }
    await recording;

    const counts = async () => {
      const rows = await db.db.execute<{ status: string; n: number }>(
        sql`select status, count(*)::int as n from webhook_deliveries where webhook_id = ${hook.body.id} group by status`,
      );
      return Object.fromEntries(rows.map((r) => [r.status, r.n])) as Record<string, number>;
    };
    await waitFor(async () => (await counts()).succeeded === EVENTS, 180_000, 'every delivery to succeed');

    const final = await counts();
    expect(final).toEqual({ succeeded: EVENTS });
    const ids = await db.db.execute<{ id: string }>(sql`select id from webhook_deliveries where webhook_id = ${hook.body.id}`);
    // None lost: the receiver acknowledged every delivery the service recorded, each one verified.
    expect(ids.every((r) => acknowledged.has(r.id))).toBe(true);
    expect(acknowledged.size).toBe(EVENTS);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    expect(changedBytes, 'retries send the same bytes').toBe(0);

    // The kills did strand jobs (locked by a dead worker), and they were released and finished.
    expect(lockedByKilled.reduce((a, b) => a + b)).toBeGreaterThan(0);
    const duplicates = [...acknowledged.values()].filter((n) => n > 1).length;
    const attempts = receiver.received.length;
    reportReliability('webhook-durability', {
      claim: '1,000 events, receiver failing ~30 % of attempts, worker process SIGKILLed twice mid-run: every delivery arrives',
      figures: { deliveries: EVENTS, 'attempts received': attempts, SIGKILLs: kills.length, lost: 0, 'delivered twice': duplicates },
    });
    console.info(
      `durability: ${EVENTS} deliveries, ${attempts} attempts received, workers SIGKILLed after ${kills.join(' and ')} attempts ` +
        `holding ${lockedByKilled.join(' and ')} locked jobs, ` +
        `${duplicates} deliveries acknowledged more than once, 0 lost`,
    );
  });
});
