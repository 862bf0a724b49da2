import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { SLOW_AFTER_MS } from '@/server/services/webhooks/lanes';
import { useOwnServer } from '@/tests/support/own-server';
import { until } from '@/tests/support/until';

/**
 * One slow endpoint never delays another's deliveries: a worker admits at most
 * WEBHOOK_ENDPOINT_CONCURRENCY attempts per subscription at a time, and a slow endpoint's backlog
 * waits in its lanes (server/services/webhooks/lanes.ts). Here the worker has 4 slots and an
 * endpoint at most 2: network A's endpoint answers after SLOW_MS (slow: its backlog goes into lanes)
 * with many deliveries queued;
 * network B's delivery must not wait behind them.
 */
const LANES = 2;
/**
 * Enough that, without the bound, B's delivery would wait behind two waves of A's on all 4 slots
 * (A would have 8 answered by then, the assertion allows 5); 20 took a minute of this suite's time.
 */
const A_EVENTS = 10;
/**
 * How long A's endpoint takes: past SLOW_AFTER_MS, so its attempts mark it slow and its backlog
 * goes into lanes. Any more only stretches the run (A's deliveries take A_EVENTS / 2 × this, 2 at a time).
 */
const SLOW_MS = SLOW_AFTER_MS + 1_000;

const own = useOwnServer('hookfair', {
  WEBHOOK_ALLOW_PRIVATE: '1',
  WEBHOOK_TIMEOUT_MS: '10000',
  WORKER_CONCURRENCY: '4',
  // Every slot may go to one network: this test is about one endpoint's share
  // (tests/http/webhook-network-share.test.ts is about a network's).
  WORKER_NETWORK_SHARE: '4',
  WEBHOOK_ENDPOINT_CONCURRENCY: String(LANES),
});

const call = own.call;

/** An endpoint that answers 200 after `delayMs`, recording each delivery id and how many requests overlapped. */
async function endpoint(delayMs: number) {
  const state = { ids: [] as string[], inFlight: 0, maxInFlight: 0 };
  const http: Server = createServer((req, res) => {
    state.inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    req.resume();
    req.on('end', () =>
      setTimeout(() => {
        state.inFlight--;
        state.ids.push(String(req.headers['x-service-delivery']));
        res.writeHead(200).end('ok');
      }, delayMs),
    );
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return { state, url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/hooks`, close: () => (http.closeAllConnections(), http.close()) };
}

async function networkWithHook(url: string) {
  const n = (await call<{ id: string }>('POST', '/networks', { name: 'Fair' })).body.id;
  expect((await call('POST', `/networks/${n}/webhooks`, { url, events: ['optin.completed'] })).status).toBe(201);
  return n;
}

/** `count` optin.completed events of network `n`, six calls at a time. */
async function emit(n: string, count: number) {
  for (let i = 0; i < count; i += 6) {
    await Promise.all(
      Array.from({ length: Math.min(6, count - i) }, async () => {
        const pod = await call<{ id: string }>('POST', `/networks/${n}/podcasts`, { name: 'Pod', host_name: 'Sam' });
        expect((await call('POST', `/networks/${n}/podcasts/${pod.body.id}/opt-in`)).status).toBeLessThan(300);
      }),
    );
  }
}

describe('fair delivery', () => {
  it('a slow endpoint with deliveries queued holds at most its share of slots; another network’s delivery goes out meanwhile; nothing is lost', async () => {
    const slow = await endpoint(SLOW_MS);
    const healthy = await endpoint(0);
    try {
      const a = await networkWithHook(slow.url);
      const b = await networkWithHook(healthy.url);
      await emit(a, A_EVENTS);
      await until(() => (slow.state.inFlight > 0 ? true : undefined));
      await emit(b, 1);
      await until(() => (healthy.state.ids.length === 1 ? true : undefined), 20_000);
      // Without the bound, A's queued deliveries would take all 4 slots and B's would wait until
      // almost all of A's had been answered (SLOW_MS each, 4 at a time).
      const aAnsweredWhenB = slow.state.ids.length;
      expect(aAnsweredWhenB).toBeLessThan(A_EVENTS - 4);
      // Every one of A's deliveries still arrives, once each, never more than LANES at a time.
      await until(() => (slow.state.ids.length >= A_EVENTS ? true : undefined), 150_000);
      expect(new Set(slow.state.ids).size).toBe(A_EVENTS);
      expect(slow.state.maxInFlight).toBeLessThanOrEqual(LANES);
    } finally {
      slow.close();
      healthy.close();
    }
  }, 240_000);
});
