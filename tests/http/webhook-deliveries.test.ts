import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useDeliveringServer } from '@/tests/support/delivering-server';
import { until } from '@/tests/support/until';

/** The delivery log, redelivery and recovery, against a real receiver and a server of our own that may reach 127.0.0.1. */
const hooks = useDeliveringServer('hookdeliveries', { WEBHOOK_RETRY_SCHEDULE: '0,0.3' });

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const call = (method: string, path: string, body?: unknown, as?: string) => hooks.call<Json>(method, path, body, as);

const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';

async function networkWithHook() {
  const n = (await call('POST', '/networks', { name: 'Deliveries' })).body.id as string;
  const hook = await call('POST', `/networks/${n}/webhooks`, { url: hooks.receiver.url, events: ['optin.completed'] });
  expect(hook.status).toBe(201);
  hooks.secret = hook.body.secret;
  return { n, hookId: hook.body.id as string, base: `/networks/${n}/webhooks/${hook.body.id}` };
}

/** One optin.completed event: a new podcast opts in. */
async function emit(n: string): Promise<void> {
  const pod = await call('POST', `/networks/${n}/podcasts`, { name: 'Pod', host_name: 'Sam' });
  expect(pod.status).toBe(201);
  expect((await call('POST', `/networks/${n}/podcasts/${pod.body.id}/opt-in`)).status).toBeLessThan(300);
}

/** Wait until the subscription's deliveries all match `done` and there are `count` of them. */
async function settled(base: string, count: number, done: (d: Json) => boolean): Promise<Json[]> {
  return until(async () => {
    const res = await call('GET', `${base}/deliveries?limit=200`);
    const items = res.body.items as Json[];
    return items.length === count && items.every(done) ? items : undefined;
  });
}

describe('webhook delivery log', () => {
  it('lists deliveries oldest first, filters them and pages with a cursor bound to the filters', async () => {
    hooks.receiver.respondWith(() => 200);
    const { n, base } = await networkWithHook();
    for (let i = 0; i < 3; i++) await emit(n);
    const all = await settled(base, 3, (d) => d.status === 'succeeded');
    expect(Object.keys(all[0]).sort()).toEqual(
      [
        'attempt_count',
        'created_at',
        'event_id',
        'event_type',
        'id',
        'last_attempt_at',
        'last_latency_ms',
        'last_status_code',
        'next_attempt_at',
        'status',
        'succeeded_at',
        'test',
        'webhook_id',
      ].sort(),
    );
    expect(all[0]).toMatchObject({ event_type: 'optin.completed', attempt_count: 1, last_status_code: 200, next_attempt_at: null });
    const created = all.map((d) => d.created_at as string);
    expect([...created].sort()).toEqual(created);

    const first = await call('GET', `${base}/deliveries?limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.items.map((d: Json) => d.id)).toEqual(all.slice(0, 2).map((d) => d.id));
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await call('GET', `${base}/deliveries?limit=2&cursor=${first.body.next_cursor}`);
    expect(second.body.items.map((d: Json) => d.id)).toEqual([all[2].id]);
    expect(second.body.next_cursor).toBeNull();
    // A cursor from another list (other filters) is refused.
    expect((await call('GET', `${base}/deliveries?limit=2&status=succeeded&cursor=${first.body.next_cursor}`)).status).toBe(400);

    const count = async (query: string) => {
      const res = await call('GET', `${base}/deliveries?${query}`);
      expect(res.status, query).toBe(200);
      return res.body.items.length as number;
    };
    expect(await count('status=succeeded')).toBe(3);
    expect(await count('status=failed')).toBe(0);
    expect(await count('event_type=optin.completed')).toBe(3);
    expect(await count('event_type=offer.accepted')).toBe(0);
    expect(await count(`since=${encodeURIComponent(all[1].created_at)}`)).toBe(2);
    expect(await count(`until=${encodeURIComponent(all[1].created_at)}`)).toBe(2);
    expect(await count(`since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).toBe(0);

    for (const bad of ['status=done', 'event_type=nope', 'since=yesterday', `since=${all[2].created_at}&until=${all[0].created_at}`]) {
      expect((await call('GET', `${base}/deliveries?${bad}`)).status, bad).toBe(400);
    }
  });

  it('shows the exact request the receiver got (without the signature) and every attempt', async () => {
    const { n, base } = await networkWithHook();
    const before = hooks.receiver.received.length;
    hooks.receiver.respondWith((_, count) => (count - before === 1 ? 500 : 200));
    await emit(n);
    const [d] = await settled(base, 1, (x) => x.status === 'succeeded');
    const got = hooks.receiver.received.slice(before);
    expect(got).toHaveLength(2);

    const detail = await call('GET', `${base}/deliveries/${d.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ id: d.id, status: 'succeeded', attempt_count: 2, last_status_code: 200 });
    expect(detail.body.request.body).toBe(got[0]!.raw.toString());
    expect(detail.body.request.body).toBe(got[1]!.raw.toString());
    expect(detail.body.request.headers).toEqual({
      'Content-Type': got[0]!.headers['content-type'],
      'User-Agent': got[0]!.headers['user-agent'],
      'X-Service-Event': 'optin.completed',
      'X-Service-Delivery': got[0]!.headers['x-service-delivery'],
      'X-Service-Test': 'true', // every network of a test-mode service is a test network
      'webhook-id': got[0]!.headers['x-service-delivery'],
    });
    expect(detail.text).not.toContain(String(got[0]!.headers['x-service-signature']));
    expect(detail.text).not.toContain(hooks.secret);
    expect(detail.body.attempts.map((a: Json) => [a.attempt_number, a.status_code])).toEqual([
      [1, 500],
      [2, 200],
    ]);
    expect(detail.body.attempts[1]).toMatchObject({ response_body: 'ok', error: null, latency_ms: expect.any(Number) });
  });

  it('redelivers a failed delivery: same id, attempt numbers continue; one whose attempt is under way is 409', async () => {
    const { n, base } = await networkWithHook();
    const before = hooks.receiver.received.length;
    hooks.receiver.respondWith(() => 410);
    await emit(n);
    const [failed] = await settled(base, 1, (x) => x.status === 'failed');
    expect(failed).toMatchObject({ attempt_count: 1, last_status_code: 410 });

    hooks.receiver.respondWith(() => 200);
    const res = await call('POST', `${base}/deliveries/${failed.id}/redeliver`);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ id: failed.id, status: 'pending', next_attempt_at: null });
    const [done] = await settled(base, 1, (x) => x.status === 'succeeded');
    expect(done).toMatchObject({ id: failed.id, attempt_count: 2, last_status_code: 200 });
    const got = hooks.receiver.received.slice(before);
    expect(got).toHaveLength(2);
    expect(got[1]!.headers['x-service-delivery']).toBe(got[0]!.headers['x-service-delivery']);
    expect(got[1]!.raw.equals(got[0]!.raw)).toBe(true);
    expect(got[1]!.verified).toBe(true);
    const detail = await call('GET', `${base}/deliveries/${failed.id}`);
    expect(detail.body.attempts.map((a: Json) => [a.attempt_number, a.status_code])).toEqual([
      [1, 410],
      [2, 200],
    ]);

    // A succeeded delivery can be sent again too.
    expect((await call('POST', `${base}/deliveries/${failed.id}/redeliver`)).status).toBe(202);
    await settled(base, 1, (x) => x.status === 'succeeded' && x.attempt_count === 3);

    // While an attempt hangs it is under way: nothing to send now.
    const hanging = hooks.receiver.received.length;
    hooks.receiver.respondWith((_, count) => (count - hanging === 1 ? 'hang' : 200));
    await emit(n);
    const pending = await until(async () => {
      const items = (await call('GET', `${base}/deliveries?status=pending`)).body.items as Json[];
      return items.length === 1 && hooks.receiver.received.length > hanging ? items[0] : undefined;
    });
    const again = await call('POST', `${base}/deliveries/${pending.id}/redeliver`);
    expect(again.status).toBe(409);
    expect(again.body.detail).toMatch(/under way/);
    await settled(base, 2, (x) => x.status === 'succeeded');
  });

  it('retry now: a delivery waiting for its next attempt is sent at once; concurrent calls never make two attempts at once nor lose one', async () => {
    // A receiver that asks for a retry in an hour, then answers slowly (so retry-now calls overlap the attempt), counting overlaps.
    let inFlight = 0;
    let maxInFlight = 0;
    let requests = 0;
    const slow = createServer((req, res) => {
      requests++;
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      req.resume();
      req.on('end', () => {
        const first = requests === 1;
        setTimeout(
          () => {
            inFlight--;
            if (first) res.writeHead(503, { 'Retry-After': '3600' }).end('later');
            else res.writeHead(200).end('ok');
          },
          first ? 0 : 700,
        );
      });
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    try {
      const n = (await call('POST', '/networks', { name: 'Retry now' })).body.id as string;
      const hook = await call('POST', `/networks/${n}/webhooks`, {
        url: `http://127.0.0.1:${(slow.address() as AddressInfo).port}/hooks`,
        events: ['optin.completed'],
      });
      const base = `/networks/${n}/webhooks/${hook.body.id}`;
      await emit(n);
      const [waiting] = await settled(base, 1, (x) => x.status === 'pending' && x.attempt_count === 1);
      expect(Date.parse(waiting.next_attempt_at) - Date.now()).toBeGreaterThan(3_000_000);

      const answers = await Promise.all(Array.from({ length: 6 }, () => call('POST', `${base}/deliveries/${waiting.id}/redeliver`)));
      for (const a of answers) expect([202, 409], JSON.stringify(a.body)).toContain(a.status);
      expect(answers.some((a) => a.status === 202)).toBe(true);
      const [done] = await settled(base, 1, (x) => x.status === 'succeeded');
      await new Promise((r) => setTimeout(r, 1500));
      const detail = (await call('GET', `${base}/deliveries/${waiting.id}`)).body;
      // Every request the receiver got is one recorded attempt, numbered 1, 2, …, and none overlapped another.
      expect(maxInFlight).toBe(1);
      expect(detail.attempts.map((a: Json) => a.attempt_number)).toEqual(Array.from({ length: requests }, (_, i) => i + 1));
      expect(detail.attempt_count).toBe(requests);
      expect(done.attempt_count).toBeGreaterThanOrEqual(2);
      expect(detail.attempts[1].status_code).toBe(200);
    } finally {
      slow.close();
    }
  });

  it('recovers the failed deliveries created since a time, and only those', async () => {
    const { n, base } = await networkWithHook();
    hooks.receiver.respondWith(() => 200);
    await emit(n);
    await settled(base, 1, (x) => x.status === 'succeeded');
    hooks.receiver.respondWith(() => 410);
    await emit(n);
    await emit(n);
    await settled(base, 3, (x) => x.status !== 'pending');
    const before = hooks.receiver.received.length;

    hooks.receiver.respondWith(() => 200);
    const since = new Date(Date.now() - 60_000).toISOString();
    const res = await call('POST', `${base}/recover`, { since });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ recovered: 2 });
    const items = await settled(base, 3, (x) => x.status === 'succeeded');
    expect(items.map((x) => x.attempt_count)).toEqual([1, 2, 2]);
    expect(hooks.receiver.received.length - before).toBe(2);
    // Nothing is failed now.
    expect((await call('POST', `${base}/recover`, { since })).body).toEqual({ recovered: 0 });
    // A disabled subscription sends nothing: redelivery and recovery are refused.
    expect((await call('PATCH', base, { status: 'disabled' })).status).toBe(200);
    expect((await call('POST', `${base}/recover`, { since })).status).toBe(409);
    expect((await call('POST', `${base}/deliveries/${items[0].id}/redeliver`)).status).toBe(409);
    expect((await call('PATCH', base, { status: 'active' })).status).toBe(200);

    for (const body of [{}, { since: 'recently' }, { since: new Date(Date.now() + 60_000).toISOString() }]) {
      expect((await call('POST', `${base}/recover`, body)).status, JSON.stringify(body)).toBe(400);
    }
    // Older than the retention window (30 days by default): the deliveries are gone, and the answer says so.
    expect((await call('POST', `${base}/recover`, { since: new Date(Date.now() - 29 * 86_400_000).toISOString() })).status).toBe(202);
    const tooOld = await call('POST', `${base}/recover`, { since: new Date(Date.now() - 31 * 86_400_000).toISOString() });
    expect(tooOld.status).toBe(400);
    expect(JSON.stringify(tooOld.body)).toMatch(/retention window: deliveries are kept for 30 days \(WEBHOOK_RETENTION_DAYS\)/);
  });

  it('answers 404 for another network’s subscription or delivery, another subscription’s delivery, and ids that are not UUIDs', async () => {
    hooks.receiver.respondWith(() => 410);
    const a = await networkWithHook();
    await emit(a.n);
    const [delivery] = await settled(a.base, 1, (x) => x.status === 'failed');
    const b = await networkWithHook();
    const otherHookOfA = (await call('POST', `/networks/${a.n}/webhooks`, { url: hooks.receiver.url, events: ['offer.accepted'] })).body.id as string;

    const paths = [
      // A's subscription through B's network.
      `/networks/${b.n}/webhooks/${a.hookId}/deliveries`,
      `/networks/${b.n}/webhooks/${a.hookId}/deliveries/${delivery.id}`,
      // A's delivery through B's subscription, and through another subscription of A.
      `${b.base}/deliveries/${delivery.id}`,
      `/networks/${a.n}/webhooks/${otherHookOfA}/deliveries/${delivery.id}`,
      // Unknown ids.
      `/networks/${a.n}/webhooks/whk_unknown/deliveries`,
      `${a.base}/deliveries/${UNKNOWN_UUID}`,
      `${a.base}/deliveries/not-a-uuid`,
      `${a.base}/deliveries/${delivery.id}x`,
    ];
    for (const path of paths) expect((await call('GET', path)).status, `GET ${path}`).toBe(404);
    for (const path of paths.slice(1)) expect((await call('POST', `${path}/redeliver`)).status, `POST ${path}/redeliver`).toBe(404);
    const since = new Date(Date.now() - 60_000).toISOString();
    expect((await call('POST', `/networks/${b.n}/webhooks/${a.hookId}/recover`, { since })).status).toBe(404);
    // Nothing of A's changed.
    expect((await call('GET', `${a.base}/deliveries/${delivery.id}`)).body).toMatchObject({ status: 'failed', attempt_count: 1 });
  });

  it('requires administrator: a read_only key gets 403', async () => {
    hooks.receiver.respondWith(() => 410);
    const { n, base } = await networkWithHook();
    await emit(n);
    const [delivery] = await settled(base, 1, (x) => x.status === 'failed');
    const sa = await call('POST', `/networks/${n}/service-accounts`, { name: 'Reader', role: 'read_only' });
    expect(sa.status).toBe(201);
    const reader = sa.body.api_key.token as string;
    expect((await call('GET', `${base}/deliveries`, undefined, reader)).status).toBe(403);
    expect((await call('GET', `${base}/deliveries/${delivery.id}`, undefined, reader)).status).toBe(403);
    expect((await call('POST', `${base}/deliveries/${delivery.id}/redeliver`, undefined, reader)).status).toBe(403);
    expect((await call('POST', `${base}/recover`, { since: new Date(Date.now() - 60_000).toISOString() }, reader)).status).toBe(403);
    expect((await call('GET', `${base}/deliveries/${delivery.id}`)).body).toMatchObject({ status: 'failed', attempt_count: 1 });
  });
});
