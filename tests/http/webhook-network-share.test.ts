import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { useOwnServer } from '@/tests/support/own-server';
import { until } from '@/tests/support/until';

/**
 * No network can take the worker's delivery slots from another (issue 33): network A subscribes
 * more endpoints than the worker has slots, all hanging, and has a delivery queued for each; B's
 * delivery must still go out at once. The bound is per network (WORKER_NETWORK_SHARE), on top of
 * the per-subscription one (WEBHOOK_ENDPOINT_CONCURRENCY, which A's one delivery per subscription
 * never reaches): server/services/webhooks/lanes.ts.
 */
const SLOTS = 4;
const SHARE = 2;
/** More of A's hanging subscriptions than the worker has slots. */
const A_HOOKS = 6;
/** How long each of A's attempts hangs before the worker gives up: what B would wait without the bound. */
const TIMEOUT_MS = 6_000;

const own = useOwnServer('netshare', {
  WEBHOOK_ALLOW_PRIVATE: '1',
  WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
  // No retry within the test: what is open at the receiver is first attempts only.
  WEBHOOK_RETRY_SCHEDULE: '600',
  WORKER_CONCURRENCY: String(SLOTS),
  WORKER_NETWORK_SHARE: String(SHARE),
});

const call = own.call;

/** `/hang/<n>` reads the request and never answers; anything else answers 200 and notes when. */
async function receiver() {
  const state = { open: 0, maxOpen: 0, hanging: 0, answeredAt: [] as number[] };
  const http = createServer((req, res) => {
    req.resume();
    if (req.url!.startsWith('/hang/')) {
      state.hanging++;
      state.open++;
      state.maxOpen = Math.max(state.maxOpen, state.open);
      req.socket.once('close', () => state.open--);
      return;
    }
    req.on('end', () => {
      state.answeredAt.push(performance.now());
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return { state, url, close: () => (http.closeAllConnections(), http.close()) };
}

async function network(name: string, urls: string[]) {
  const n = (await call<{ id: string }>('POST', '/networks', { name })).body.id;
  for (const url of urls) expect((await call('POST', `/networks/${n}/webhooks`, { url, events: ['optin.completed'] })).status).toBe(201);
  return n;
}

/** One optin.completed of network `n`: one delivery per subscription. */
async function optIn(n: string) {
  const pod = await call<{ id: string }>('POST', `/networks/${n}/podcasts`, { name: 'Pod', host_name: 'Sam' });
  expect((await call('POST', `/networks/${n}/podcasts/${pod.body.id}/opt-in`)).status).toBeLessThan(300);
}

describe('a network’s share of the worker’s delivery slots', () => {
  it('A’s hanging endpoints, more than the worker’s slots, hold only A’s share; B’s delivery goes out at once', async () => {
    const r = await receiver();
    try {
      const a = await network(
        'Hangs',
        Array.from({ length: A_HOOKS }, (_, i) => `${r.url}/hang/${i}`),
      );
      const b = await network('Waits', [`${r.url}/ok`]);
      await optIn(a);
      // A's attempts have started: its share is taken, its other deliveries queued.
      await until(() => (r.state.open >= SHARE ? true : undefined));
      const sent = performance.now();
      await optIn(b);
      await until(() => (r.state.answeredAt.length > 0 ? true : undefined), TIMEOUT_MS * 2);
      const waitedMs = r.state.answeredAt[0]! - sent;
      // Without the bound A's deliveries take all the slots, and B's waits for A's time-out.
      expect(waitedMs, `B waited ${Math.round(waitedMs)} ms; A held ${r.state.maxOpen} connections`).toBeLessThan(TIMEOUT_MS / 3);
      expect(r.state.maxOpen).toBeLessThanOrEqual(SHARE);
      // A's other deliveries are not dropped: they go out as its slots free (after its time-outs).
      await until(() => (r.state.hanging >= SHARE + 1 ? true : undefined), TIMEOUT_MS * 3);
    } finally {
      r.close();
    }
  }, 90_000);
});
