import { and, eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { webhookAttempts, webhookDeliveries } from '@/db/schema';
import { crontab, taskList } from '@/jobs/tasks';
import { config, loadConfig, setConfig } from '@/server/config';
import { pruneWebhookDeliveries, retentionCutoff, retentionDays } from '@/server/services/webhooks/retention';
import { createNetworkRow, deliveryRow, eventRow, useTestDatabase, webhookRow } from './support/fixtures';

useTestDatabase();

type Status = 'pending' | 'succeeded' | 'failed';

/** A subscription with deliveries of the given status and age (days), each with two attempts. TEST-NET URL: nothing is sent. */
async function hookWith(deliveries: Array<{ status: Status; daysAgo: number }>) {
  const network = await createNetworkRow();
  const hook = await webhookRow(network.id);
  const ids: string[] = [];
  for (const d of deliveries) {
    const createdAt = sql`now() - make_interval(days => ${d.daysAgo})`;
    const { id } = await deliveryRow(
      network.id,
      { webhookId: hook.id, eventId: (await eventRow(network.id)).id },
      { body: '{"x":1}', status: d.status, createdAt },
    );
    ids.push(id);
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
