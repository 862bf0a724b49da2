import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { newId } from '@/db/ids';
import { events, webhookAttempts, webhookDeliveries, webhooks } from '@/db/schema';
import { crontab, taskList } from '@/jobs/tasks';
import { config, loadConfig, setConfig } from '@/server/config';
import { pruneWebhookDeliveries, retentionCutoff, retentionDays } from '@/server/services/webhooks/retention';
import { closeTestDatabase, createNetworkRow, openTestDatabase } from './support/fixtures';

beforeAll(openTestDatabase);
afterAll(closeTestDatabase);

type Status = 'pending' | 'succeeded' | 'failed';

/** A subscription with deliveries of the given status and age (days), each with two attempts. TEST-NET URL: nothing is sent. */
async function hookWith(deliveries: Array<{ status: Status; daysAgo: number }>) {
  const network = await createNetworkRow();
  const [hook] = await database()
    .insert(webhooks)
    .values({ id: newId('webhook'), networkId: network.id, url: 'https://203.0.113.10/hooks', events: ['offer.accepted'], secretSealed: 'v1.x.x.x' })
    .returning();
  const ids: string[] = [];
  for (const d of deliveries) {
    const [event] = await database()
      .insert(events)
      .values({ id: newId('event'), networkId: network.id, type: 'offer.accepted', data: {} })
      .returning();
    const id = randomUUID();
    ids.push(id);
    const createdAt = sql`now() - make_interval(days => ${d.daysAgo})`;
    await database().insert(webhookDeliveries).values({
      id,
      webhookId: hook!.id,
      networkId: network.id,
      eventId: event!.id,
      eventType: 'offer.accepted',
      body: '{"x":1}',
      status: d.status,
      createdAt,
    });
    for (const attemptNumber of [1, 2]) {
      await database()
        .insert(webhookAttempts)
        .values({ deliveryId: id, networkId: network.id, attemptNumber, startedAt: createdAt, statusCode: 500 });
    }
  }
  return { networkId: network.id, ids };
}

async function surviving(networkId: string, ids: string[]) {
  const d = await database()
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.networkId, networkId), inArray(webhookDeliveries.id, ids)));
  const a = await database()
    .select({ id: webhookAttempts.deliveryId })
    .from(webhookAttempts)
    .where(and(eq(webhookAttempts.networkId, networkId), inArray(webhookAttempts.deliveryId, ids)));
  return { deliveries: new Set(d.map((r) => r.id)), attempts: a.map((r) => r.id) };
}

describe('webhook delivery retention', () => {
  it('deletes finished deliveries older than the window with their attempts, in small batches; keeps newer and pending ones', async () => {
    const old = Array.from({ length: 7 }, (_, i) => ({ status: (i % 2 ? 'failed' : 'succeeded') as Status, daysAgo: 31 + i }));
    const { networkId, ids } = await hookWith([
      ...old,
      { status: 'succeeded', daysAgo: 29 },
      { status: 'failed', daysAgo: 1 },
      { status: 'pending', daysAgo: 40 },
    ]);
    const other = await hookWith([
      { status: 'failed', daysAgo: 35 },
      { status: 'succeeded', daysAgo: 2 },
    ]);

    // Batches of 3: the 7 old ones of the first subscription take three statements.
    const deleted = await pruneWebhookDeliveries({ db: database(), cutoff: retentionCutoff(), batchSize: 3 });
    expect(deleted).toBeGreaterThanOrEqual(8);

    const kept = await surviving(networkId, ids);
    expect([...kept.deliveries].sort()).toEqual(ids.slice(7).sort());
    expect(new Set(kept.attempts)).toEqual(new Set(ids.slice(7)));
    expect(kept.attempts).toHaveLength(6);
    const otherKept = await surviving(other.networkId, other.ids);
    expect([...otherKept.deliveries]).toEqual([other.ids[1]]);

    // Nothing left to do: a second run deletes nothing of these.
    await pruneWebhookDeliveries({ db: database(), batchSize: 3 });
    expect((await surviving(networkId, ids)).deliveries.size).toBe(3);
  });

  it('uses WEBHOOK_RETENTION_DAYS (default 30) and runs hourly as a graphile-worker cron task', () => {
    const saved = config();
    const withEnv = (vars: Record<string, string>) => loadConfig({ ...process.env, WEBHOOK_RETENTION_DAYS: undefined, ...vars } as NodeJS.ProcessEnv);
    try {
      setConfig(withEnv({}));
      expect(retentionDays()).toBe(30);
      setConfig(withEnv({ WEBHOOK_RETENTION_DAYS: '7' }));
      expect(retentionDays()).toBe(7);
      expect(Date.now() - retentionCutoff().getTime()).toBeCloseTo(7 * 86_400_000, -4);
      expect(() => withEnv({ WEBHOOK_RETENTION_DAYS: 'soon' })).toThrow(/WEBHOOK_RETENTION_DAYS/);
    } finally {
      setConfig(saved);
    }
    expect(crontab).toMatch(/^\d+ \* \* \* \* prune-webhook-deliveries$/m);
    expect(taskList['prune-webhook-deliveries']).toBeTypeOf('function');
  });
});
