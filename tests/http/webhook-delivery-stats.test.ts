import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { webhookAttempts, webhookDeliveries } from '@/db/schema';
import { EVENT_DATA_EXAMPLES } from '@/domain/events';
import { recordEvent } from '@/server/services/events/record-event';
import { createWebhook } from '@/server/services/webhooks/subscriptions';
import { api } from '@/tests/support/api';
import { adInventory, createNetworkRow, personKey, useTestDatabase } from '@/tests/support/fixtures';

useTestDatabase();

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const HOUR = 3_600_000;

/**
 * A network with one subscription and hand-made deliveries (no worker involved):
 * the events are recorded before the subscription exists, so nothing fans out.
 */
async function networkWithDeliveries() {
  const network = await createNetworkRow();
  const events = [];
  for (let i = 0; i < 5; i++)
    events.push(
      await database().transaction((tx) =>
        recordEvent({ tx, networkId: network.id, type: 'optin.completed', data: EVENT_DATA_EXAMPLES['optin.completed'] }),
      ),
    );
  const { row: hook } = await database().transaction((tx) =>
    createWebhook({ tx, networkId: network.id, url: 'https://example.com/hook', events: ['optin.completed'], actorKeyId: 'key_test' }),
  );
  const now = Date.now();
  const deliveries: Array<{ status: 'succeeded' | 'failed' | 'pending'; at: number; latencies: number[] }> = [
    { status: 'succeeded', at: now - 0.5 * HOUR, latencies: [100] },
    { status: 'succeeded', at: now - 0.5 * HOUR, latencies: [300] },
    { status: 'failed', at: now - 3 * HOUR, latencies: [50, 70] },
    { status: 'pending', at: now, latencies: [] },
    { status: 'succeeded', at: now - 48 * HOUR, latencies: [20] },
  ];
  for (const [n, d] of deliveries.entries()) {
    // One delivery per (event, subscription): each its own event.
    const e = events[n]!;
    const id = randomUUID();
    await database()
      .insert(webhookDeliveries)
      .values({
        id,
        webhookId: hook.id,
        networkId: network.id,
        eventId: e.id,
        eventType: 'optin.completed',
        body: '{}',
        status: d.status,
        createdAt: new Date(d.at),
      });
    for (const [i, latency] of d.latencies.entries()) {
      await database()
        .insert(webhookAttempts)
        .values({
          deliveryId: id,
          networkId: network.id,
          attemptNumber: i + 1,
          startedAt: new Date(d.at + i * 1000),
          latencyMs: latency,
          statusCode: d.status === 'failed' ? 500 : 200,
        });
    }
  }
  return { network, hook };
}

describe('webhook delivery stats', () => {
  it('buckets deliveries by hour with counts and latency percentiles, every hour present', async () => {
    const { network, hook } = await networkWithDeliveries();
    const res = await api<Json>('GET', `/networks/${network.id}/webhook-delivery-stats`);
    expect(res.status).toBe(200);
    expect(res.body.bucket).toBe('hour');
    expect(res.body.totals).toEqual({ succeeded: 2, failed: 1, pending: 1 });
    const buckets = res.body.buckets as Json[];
    expect(buckets.length).toBeGreaterThanOrEqual(24);
    expect(buckets.length).toBeLessThanOrEqual(26);
    const starts = buckets.map((b) => Date.parse(b.start));
    for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).toBe(HOUR);
    const recent = buckets.find((b) => b.succeeded === 2)!;
    expect(recent).toMatchObject({ failed: 0, latency_p50_ms: 200, latency_p95_ms: 290 });
    expect(buckets.find((b) => b.failed === 1)).toMatchObject({ latency_p50_ms: 60 });
    expect(buckets.filter((b) => b.succeeded + b.failed + b.pending === 0).every((b) => b.latency_p50_ms === null)).toBe(true);

    const filtered = await api<Json>('GET', `/networks/${network.id}/webhook-delivery-stats?webhook_id=${hook.id}`);
    expect(filtered.body.totals).toEqual({ succeeded: 2, failed: 1, pending: 1 });
    expect((await api('GET', `/networks/${network.id}/webhook-delivery-stats?webhook_id=whk_nope`)).status).toBe(404);
  });

  it('buckets by day over 14 days by default, and refuses bad ranges', async () => {
    const { network } = await networkWithDeliveries();
    const res = await api<Json>('GET', `/networks/${network.id}/webhook-delivery-stats?bucket=day`);
    expect(res.status).toBe(200);
    expect(res.body.totals).toEqual({ succeeded: 3, failed: 1, pending: 1 });
    expect(res.body.buckets).toHaveLength(15);
    const since = new Date(Date.now() - 2 * HOUR).toISOString();
    const short = await api<Json>('GET', `/networks/${network.id}/webhook-delivery-stats?since=${encodeURIComponent(since)}`);
    expect(short.body.totals).toEqual({ succeeded: 2, failed: 0, pending: 1 });

    for (const bad of [
      'bucket=week',
      'since=yesterday',
      `since=${new Date(Date.now() - 8 * 24 * HOUR).toISOString()}`,
      `since=${new Date(Date.now() + HOUR).toISOString()}`,
    ]) {
      expect((await api('GET', `/networks/${network.id}/webhook-delivery-stats?${bad}`)).status, bad).toBe(400);
    }
  });

  it('is for administrators, like the rest of the webhooks area', async () => {
    const { network } = await networkWithDeliveries();
    const reader = await personKey([{ networkId: network.id, role: 'read_only' }]);
    expect((await api('GET', `/networks/${network.id}/webhook-delivery-stats`, { token: reader.token })).status).toBe(403);
    const admin = await personKey([{ networkId: network.id, role: 'administrator' }]);
    expect((await api('GET', `/networks/${network.id}/webhook-delivery-stats`, { token: admin.token })).status).toBe(200);
    const other = await createNetworkRow();
    expect((await api('GET', `/networks/${other.id}/webhook-delivery-stats`, { token: admin.token })).status).toBe(403);
  });
});

describe('network overview', () => {
  it('counts advertisers, campaigns, podcasts, offers and creatives for read_only keys', async () => {
    const network = await createNetworkRow();
    const reader = await personKey([{ networkId: network.id, role: 'read_only' }]);
    const empty = await api<Json>('GET', `/networks/${network.id}/overview`, { token: reader.token });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({
      advertisers: 0,
      campaigns: { draft: 0, active: 0, paused: 0, completed: 0, archived: 0 },
      podcasts: { total: 0, opted_in: 0 },
      offers: { open: 0, accepted: 0, rejected: 0, expired: 0 },
      creatives: { awaiting_consent: 0, generating: 0, pending_approval: 0, approved: 0, changes_requested: 0, failed: 0 },
    });
    await adInventory(network.id);
    await adInventory(network.id, { campaignStatus: 'draft', optedIn: false });
    const res = await api<Json>('GET', `/networks/${network.id}/overview`, { token: reader.token });
    expect(res.body).toMatchObject({ advertisers: 2, campaigns: { active: 1, draft: 1 }, podcasts: { total: 2, opted_in: 1 } });
    const other = await createNetworkRow();
    expect((await api('GET', `/networks/${other.id}/overview`, { token: reader.token })).status).toBe(403);
  });
});

describe('newest first (order=desc) for the delivery log and the event log', () => {
  it('pages deliveries and events newest first with cursors bound to the order', async () => {
    const { network, hook } = await networkWithDeliveries();
    const base = `/networks/${network.id}/webhooks/${hook.id}/deliveries`;
    const asc = (await api<Json>('GET', `${base}?limit=200`)).body.items.map((d: Json) => d.id);
    const first = await api<Json>('GET', `${base}?order=desc&limit=3`);
    expect(first.status).toBe(200);
    const second = await api<Json>('GET', `${base}?order=desc&limit=3&cursor=${first.body.next_cursor}`);
    expect([...first.body.items, ...second.body.items].map((d: Json) => d.id)).toEqual([...asc].reverse());
    expect(first.body.items[0].last_latency_ms).toBeNull(); // the pending one: no attempt yet
    expect(first.body.items[1].last_latency_ms).toEqual(expect.any(Number));
    expect((await api('GET', `${base}?limit=3&cursor=${first.body.next_cursor}`)).status).toBe(400);
    expect((await api('GET', `${base}?order=sideways`)).status).toBe(400);

    const events = `/networks/${network.id}/events`;
    const ascEvents = (await api<Json>('GET', `${events}?limit=200`)).body.items.map((e: Json) => e.id);
    const newest = await api<Json>('GET', `${events}?order=desc&limit=2`);
    const rest = await api<Json>('GET', `${events}?order=desc&limit=200&cursor=${newest.body.next_cursor}`);
    expect([...newest.body.items, ...rest.body.items].map((e: Json) => e.id)).toEqual([...ascEvents].reverse());
    expect((await api('GET', `${events}?order=up`)).status).toBe(400);
  });
});
