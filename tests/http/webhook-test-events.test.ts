import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { api, type Page } from '@/tests/support/api';
import { useDeliveringServer } from '@/tests/support/delivering-server';
import { until } from '@/tests/support/until';

/**
 * Test events (POST …/webhooks/{id}/test) and subscription health in the webhook list, on a
 * server of our own that may deliver to 127.0.0.1 and retries fast.
 */
const hooks = useDeliveringServer('testevents');

const call = <T = Record<string, unknown>>(
  method: string,
  path: string,
  body?: unknown,
  options: { token?: string; headers?: Record<string, string> } = {},
) => api<T>(method, path, { token: options.token ?? hooks.token, baseUrl: hooks.server.url, body, headers: options.headers });

interface Delivery {
  id: string;
  event_id: string | null;
  event_type: string;
  test: boolean;
  status: string;
  attempt_count: number;
}

interface HookItem {
  id: string;
  health: {
    last_delivery: { id: string; outcome: string; status_code: number | null; attempted_at: string } | null;
    success_rate_24h: number | null;
    attempted_24h: number;
  };
}

async function networkWithHook(events: string[]) {
  const n = (await call<{ id: string }>('POST', '/networks', { name: 'Test events' })).body.id;
  const hook = await call<{ id: string; secret: string }>('POST', `/networks/${n}/webhooks`, { url: hooks.receiver.url, events });
  expect(hook.status).toBe(201);
  hooks.secret = hook.body.secret;
  return { n, hookId: hook.body.id };
}

const deliveryOf = (n: string, hookId: string, id: string) =>
  call<Delivery & { attempts: unknown[] }>('GET', `/networks/${n}/webhooks/${hookId}/deliveries/${id}`);

describe('send a test event', () => {
  it('sends the example envelope, signed and logged, to a disabled subscription; the receiver can tell it is a test', async () => {
    hooks.receiver.respondWith(() => 200);
    const { n, hookId } = await networkWithHook(['offer.accepted']);
    const hook = await call<{ version: number }>('GET', `/networks/${n}/webhooks/${hookId}`);
    expect((await call('PATCH', `/networks/${n}/webhooks/${hookId}`, { status: 'disabled', version: hook.body.version })).status).toBe(200);

    const before = hooks.receiver.received.length;
    // Any of the six types, not only those subscribed to.
    const sent = await call<Delivery>('POST', `/networks/${n}/webhooks/${hookId}/test`, { event_type: 'creative.ready' });
    expect(sent.status).toBe(202);
    expect(sent.body).toMatchObject({ event_type: 'creative.ready', test: true, event_id: null, status: 'pending', webhook_id: hookId });

    const got = await until(() => hooks.receiver.received.slice(before).find((r) => r.headers['x-service-delivery'] === sent.body.id));
    expect(got.verified).toBe(true);
    expect(got.headers['x-service-test']).toBe('true');
    expect(got.headers['x-service-event']).toBe('creative.ready');
    const envelope = JSON.parse(got.raw.toString());
    expect(envelope).toMatchObject({ id: sent.body.id, type: 'creative.ready', test: true });
    const catalog = await call<{ items: Array<{ type: string; example: { data: unknown } }> }>('GET', '/event-types');
    expect(envelope.data).toEqual(catalog.body.items.find((i) => i.type === 'creative.ready')!.example.data);

    const logged = await until(async () => {
      const d = await deliveryOf(n, hookId, sent.body.id);
      return d.body.status === 'succeeded' ? d : undefined;
    });
    expect(logged.body).toMatchObject({ test: true, attempt_count: 1, request: { headers: { 'X-Service-Test': 'true' }, body: got.raw.toString() } });
    // Not in the event log: reconciliation never sees a test.
    expect((await call<Page<unknown>>('GET', `/networks/${n}/events`)).body.items).toEqual([]);
    // Still disabled, and real events still go nowhere.
    expect((await call<{ status: string }>('GET', `/networks/${n}/webhooks/${hookId}`)).body.status).toBe('disabled');
  });

  it('is retried like any delivery (500 → 200); a test network marks its real events as tests too', async () => {
    const { n, hookId } = await networkWithHook(['optin.completed']);
    const before = hooks.receiver.received.length;
    hooks.receiver.respondWith((_, count) => (count - before <= 1 ? 500 : 200));
    const sent = await call<Delivery>('POST', `/networks/${n}/webhooks/${hookId}/test`, { event_type: 'offer.rejected' });
    expect(sent.status).toBe(202);
    const done = await until(async () => {
      const d = await deliveryOf(n, hookId, sent.body.id);
      return d.body.status === 'succeeded' ? d : undefined;
    });
    expect(done.body.attempt_count).toBe(2);
    const attempts = hooks.receiver.received.slice(before).filter((r) => r.headers['x-service-delivery'] === sent.body.id);
    expect(attempts).toHaveLength(2);
    expect(attempts[0]!.raw.equals(attempts[1]!.raw)).toBe(true);

    hooks.receiver.respondWith(() => 200);
    const pod = await call<{ id: string }>('POST', `/networks/${n}/podcasts`, { name: 'Pod', host_name: 'Sam' });
    const mark = hooks.receiver.received.length;
    await call('POST', `/networks/${n}/podcasts/${pod.body.id}/opt-in`);
    const real = await until(() => hooks.receiver.received.slice(mark).find((r) => r.headers['x-service-event'] === 'optin.completed'));
    // Every network is a test network under APP_ENV=test; a live network's deliveries carry no marker (network-modes.test.ts).
    expect(real.headers['x-service-test']).toBe('true');
    expect(JSON.parse(real.raw.toString())).toMatchObject({ type: 'optin.completed', test: true });
  });

  it('answers 400 for an unknown type, 404 for another network’s webhook, 403 below administrator; replays an Idempotency-Key', async () => {
    hooks.receiver.respondWith(() => 200);
    const { n, hookId } = await networkWithHook(['offer.accepted']);
    const bad = await call<{ errors: Array<{ path: string }> }>('POST', `/networks/${n}/webhooks/${hookId}/test`, { event_type: 'offer.exploded' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]!.path).toBe('event_type');
    expect((await call('POST', `/networks/${n}/webhooks/${hookId}/test`, {})).status).toBe(400);
    expect((await call('POST', `/networks/${n}/webhooks/${hookId}/test`, { event_type: 'offer.accepted', extra: 1 })).status).toBe(400);

    const other = await networkWithHook(['offer.accepted']);
    expect((await call('POST', `/networks/${n}/webhooks/${other.hookId}/test`, { event_type: 'offer.accepted' })).status).toBe(404);

    const reader = await call<{ token: string }>('POST', '/apikeys', { key_name: 'reader', scopes: [{ network_id: n, role: 'read_only' }] });
    expect(reader.status).toBe(201);
    expect(
      (await call('POST', `/networks/${n}/webhooks/${hookId}/test`, { event_type: 'offer.accepted' }, { token: reader.body.token })).status,
    ).toBe(403);

    const key = randomUUID();
    const first = await call<Delivery>(
      'POST',
      `/networks/${n}/webhooks/${hookId}/test`,
      { event_type: 'offer.accepted' },
      { headers: { 'idempotency-key': key } },
    );
    const again = await call<Delivery>(
      'POST',
      `/networks/${n}/webhooks/${hookId}/test`,
      { event_type: 'offer.accepted' },
      { headers: { 'idempotency-key': key } },
    );
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    const listed = await call<Page<Delivery>>('GET', `/networks/${n}/webhooks/${hookId}/deliveries`);
    expect(listed.body.items.map((d) => d.id)).toEqual([first.body.id]);
  });
});

describe('subscription health in the webhook list', () => {
  it('shows the latest attempted delivery’s outcome and time, and the 24 h success rate', async () => {
    const { n, hookId } = await networkWithHook(['offer.accepted']);
    const quiet = await call<{ id: string }>('POST', `/networks/${n}/webhooks`, { url: `${hooks.receiver.url}?quiet`, events: ['offer.accepted'] });
    const listOf = async () => (await call<Page<HookItem>>('GET', `/networks/${n}/webhooks`)).body.items;
    expect((await listOf()).find((h) => h.id === hookId)!.health).toEqual({ last_delivery: null, success_rate_24h: null, attempted_24h: 0 });

    hooks.receiver.respondWith(() => 200);
    const ok = await call<Delivery>('POST', `/networks/${n}/webhooks/${hookId}/test`, { event_type: 'offer.accepted' });
    await until(async () => ((await deliveryOf(n, hookId, ok.body.id)).body.status === 'succeeded' ? true : undefined));
    hooks.receiver.respondWith(() => 410);
    const gone = await call<Delivery>('POST', `/networks/${n}/webhooks/${hookId}/test`, { event_type: 'offer.accepted' });
    await until(async () => ((await deliveryOf(n, hookId, gone.body.id)).body.status === 'failed' ? true : undefined));

    const items = await listOf();
    const health = items.find((h) => h.id === hookId)!.health;
    expect(health).toMatchObject({
      last_delivery: { id: gone.body.id, outcome: 'failed', status_code: 410 },
      success_rate_24h: 0.5,
      attempted_24h: 2,
    });
    expect(Date.now() - Date.parse(health.last_delivery!.attempted_at)).toBeLessThan(60_000);
    expect(items.find((h) => h.id === quiet.body.id)!.health.last_delivery).toBeNull();
    hooks.receiver.respondWith(() => 200);
  });
});
