/**
 * DNS rebinding: a delivery connects to exactly the addresses the SSRF check vetted; the host
 * name is never resolved a second time (by us, by Node or by the system resolver).
 *
 * The trick that makes this a real test rather than a mock: the target is `localhost`. At check
 * time an injected resolver answers 127.0.0.2, where the legitimate receiver listens; every later
 * resolution — the same resolver asked again, or the system's (which answers 127.0.0.1 for
 * localhost) — leads to 127.0.0.1, where an "internal service" listens on the same port. Without
 * the pin the request lands on the internal service.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { webhookAttempts } from '@/db/schema';
import { sealSecret } from '@/server/secrets';
import { attemptDelivery, pinnedLookup, postPinned } from '@/server/services/webhooks/deliver';
import { sign } from '@/server/services/webhooks/signature';
import { assertDeliverableUrl, type HostResolver, type VettedAddress } from '@/server/services/webhooks/ssrf';
import { closeTestDatabase, createNetworkRow, deliveryRow, eventRow, openTestDatabase, webhookRow } from './support/fixtures';

interface Listener {
  server: Server;
  hits: Array<{ headers: IncomingHttpHeaders; raw: Buffer }>;
}

async function listen(host: string, port: number, label: string): Promise<Listener> {
  const hits: Listener['hits'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      hits.push({ headers: req.headers, raw: Buffer.concat(chunks) });
      res.writeHead(200, { 'content-type': 'text/plain' }).end(label);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return { server, hits };
}

const close = (l: Listener) =>
  new Promise<void>((resolve) => {
    l.server.closeAllConnections();
    l.server.close(() => resolve());
  });

/** Answers `first` once, then `later` forever: a rebinding DNS server with a zero TTL. */
function rebindingResolver(first: VettedAddress[], later: VettedAddress[]): HostResolver & { calls: number } {
  const resolver = Object.assign(
    async () => {
      resolver.calls++;
      return resolver.calls === 1 ? first : later;
    },
    { calls: 0 },
  );
  return resolver;
}

const permissive = { allowPrivate: true, requireHttps: false };
const strict = { allowPrivate: false, requireHttps: false };
const internal: VettedAddress[] = [{ address: '127.0.0.1', family: 4 }];

let legit: Listener;
let internalService: Listener;
let port: number;

beforeAll(async () => {
  await openTestDatabase();
  // The internal service first, on a free port; the legitimate receiver on the same port of 127.0.0.2.
  internalService = await listen('127.0.0.1', 0, 'internal');
  port = (internalService.server.address() as AddressInfo).port;
  legit = await listen('127.0.0.2', port, 'legit');
});

afterAll(async () => {
  await Promise.all([close(legit), close(internalService)]);
  await closeTestDatabase();
});

describe('pinnedLookup', () => {
  it('answers only the vetted addresses, whatever the host name, in both callback forms', async () => {
    const lookup = pinnedLookup([
      { address: '192.0.2.10', family: 4 },
      { address: '2001:db8::10', family: 6 },
    ]);
    const one = await new Promise<[string, number | undefined]>((resolve, reject) =>
      lookup('anything.example', {}, (err, address, family) => (err ? reject(err) : resolve([address as string, family]))),
    );
    expect(one).toEqual(['192.0.2.10', 4]);
    const all = await new Promise((resolve, reject) =>
      lookup('anything.example', { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
    );
    expect(all).toEqual([
      { address: '192.0.2.10', family: 4 },
      { address: '2001:db8::10', family: 6 },
    ]);
    const v6 = await new Promise((resolve, reject) => lookup('x', { family: 6 }, (err, address) => (err ? reject(err) : resolve(address))));
    expect(v6).toBe('2001:db8::10');
    const none = await new Promise((resolve) => pinnedLookup(internal)('x', { family: 6 }, (err) => resolve(err?.code)));
    expect(none).toBe('ENOTFOUND');
  });
});

describe('a delivery connects to the vetted addresses only', () => {
  it('the system resolver would send this test to the internal service', async () => {
    // Guards the test's premise: a second, normal resolution of localhost reaches 127.0.0.1.
    const res = await fetch(`http://localhost:${port}/probe`, { method: 'POST', body: 'x' });
    expect(await res.text()).toBe('internal');
    internalService.hits.length = 0;
  });

  it('postPinned: vetted 127.0.0.2 at check time, rebinding to 127.0.0.1 afterwards → 127.0.0.2, Host stays the name', async () => {
    const resolver = rebindingResolver([{ address: '127.0.0.2', family: 4 }], internal);
    const target = await assertDeliverableUrl(`http://localhost:${port}/hooks?x=1`, permissive, resolver);
    expect(target.addresses).toEqual([{ address: '127.0.0.2', family: 4 }]);
    const before = legit.hits.length;
    const excerpt = await postPinned(target, { 'Content-Type': 'application/json' }, '{"n":1}', { timeoutMs: 2000, excerptBytes: 1024 });
    expect(excerpt.toString()).toBe('legit');
    expect(legit.hits.length - before).toBe(1);
    expect(legit.hits.at(-1)!.headers.host).toBe(`localhost:${port}`);
    expect(legit.hits.at(-1)!.raw.toString()).toBe('{"n":1}');
    expect(internalService.hits).toHaveLength(0);
    expect(resolver.calls).toBe(1);

    // Keep-alive: a second request to the same host with a different vetted set must not reuse
    // the socket of the first pin.
    const second = await postPinned({ url: target.url, addresses: internal }, {}, '{}', { timeoutMs: 2000, excerptBytes: 1024 });
    expect(second.toString()).toBe('internal');
    const third = await postPinned(target, {}, '{}', { timeoutMs: 2000, excerptBytes: 1024 });
    expect(third.toString()).toBe('legit');
    internalService.hits.length = 0;
  });

  it('postPinned under the strict policy: public at check time, loopback afterwards → never reaches loopback', async () => {
    // A global unicast address passes the policy; this machine has no route to the internet.
    const resolver = rebindingResolver([{ address: '93.184.216.10', family: 4 }], internal);
    const target = await assertDeliverableUrl(`http://localhost:${port}/hooks`, strict, resolver);
    expect(target.addresses).toEqual([{ address: '93.184.216.10', family: 4 }]);
    const error = await postPinned(target, {}, '{}', { timeoutMs: 500, excerptBytes: 1024 }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error!.message).toMatch(/Timed out after 500 ms|93\.184\.216\.10|ENETUNREACH|EHOSTUNREACH/);
    expect(internalService.hits).toHaveLength(0);
    expect(resolver.calls).toBe(1);
    // …and the strict check itself refuses the rebound answer.
    await expect(assertDeliverableUrl(`http://localhost:${port}/hooks`, strict, resolver)).rejects.toMatchObject({ kind: 'bad-request' });
  });

  it('attemptDelivery: the signed attempt goes to the vetted address and is recorded', async () => {
    const network = await createNetworkRow();
    const secret = `whsec_${randomUUID().replace(/-/g, '')}`;
    const hook = await webhookRow(network.id, { url: `http://localhost:${port}/hooks`, secretSealed: sealSecret('webhook-secret', secret) });
    // Rows written directly (no fan-out, no job): the shared test server's worker must not take
    // this delivery, it would resolve localhost itself.
    const event = await eventRow(network.id);
    const deliveryId = randomUUID();
    const body = JSON.stringify({ id: deliveryId, type: 'offer.accepted', occurred_at: new Date().toISOString(), data: {} });
    await deliveryRow(network.id, { webhookId: hook.id, eventId: event.id }, { id: deliveryId, body });

    const resolver = rebindingResolver([{ address: '127.0.0.2', family: 4 }], internal);
    const before = legit.hits.length;
    const result = await attemptDelivery({
      db: database(),
      networkId: network.id,
      deliveryId,
      checkUrl: (url) => assertDeliverableUrl(url, permissive, resolver),
    });
    expect(result).toBe('succeeded');
    expect(resolver.calls).toBe(1);
    expect(internalService.hits).toHaveLength(0);
    const hit = legit.hits[before]!;
    expect(hit.headers['x-service-delivery']).toBe(deliveryId);
    expect(hit.raw.toString('utf8')).toBe(body);
    expect(hit.headers['x-service-signature']).toBe(sign(secret, hit.raw));
    const attempts = await database().select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, deliveryId));
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({
      attemptNumber: 1,
      statusCode: 200,
      responseBody: 'legit',
      responseHeaders: { 'content-type': 'text/plain' },
      error: null,
    });
  });
});
