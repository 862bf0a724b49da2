import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  raw: Buffer;
  verified: boolean;
}

/**
 * A subscriber's endpoint: a real node:http server that verifies
 * X-Service-Signature over the raw request bytes, as docs/webhooks.md tells
 * subscribers to. `respond` decides each answer (status, or 'hang').
 */
export async function startWebhookReceiver(secret: () => string) {
  const received: Received[] = [];
  let respond: (r: Received, n: number) => number | 'hang' = () => 200;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const expected = createHmac('sha256', secret()).update(raw).digest();
      const given = String(req.headers['x-service-signature'] ?? '')
        .split(',')
        .map((s) => Buffer.from(s.trim(), 'hex'));
      const verified = given.some((g) => g.length === expected.length && timingSafeEqual(g, expected));
      const r = { headers: req.headers, raw, verified };
      received.push(r);
      const answer = respond(r, received.length);
      if (answer === 'hang') return;
      res.writeHead(verified ? answer : 401).end(verified ? 'ok' : 'bad signature');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    respondWith(fn: (r: Received, n: number) => number | 'hang') {
      respond = fn;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
