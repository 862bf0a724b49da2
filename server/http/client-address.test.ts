import type { IncomingMessage } from 'node:http';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clientAddressOf, compileTrustedProxies, lockoutKeyOf } from './client-address';

/** A request as the HTTP server hands it over: only the socket address and the headers matter here. */
function request(remoteAddress: string | undefined, forwardedFor?: string): IncomingMessage {
  const headers = forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor };
  return { headers, socket: { remoteAddress } } as unknown as IncomingMessage;
}

describe('clientAddressOf', () => {
  it.each([undefined, '', ' , '])('ignores X-Forwarded-For, spoofed or not, when no proxy is trusted (setting %j)', (setting) => {
    const trust = compileTrustedProxies(setting);
    expect(clientAddressOf(request('198.51.100.20'), trust)).toBe('198.51.100.20');
    expect(clientAddressOf(request('198.51.100.20', '127.0.0.1'), trust)).toBe('198.51.100.20');
    expect(clientAddressOf(request('10.0.0.5', '203.0.113.9'), trust)).toBe('10.0.0.5');
  });

  it('takes the rightmost X-Forwarded-For hop that is not a trusted proxy as the client', () => {
    const trust = compileTrustedProxies('10.0.0.0/8');
    expect(clientAddressOf(request('10.0.0.5', '203.0.113.9'), trust)).toBe('203.0.113.9');
    expect(clientAddressOf(request('10.0.0.5', '192.0.2.1, 203.0.113.9'), trust)).toBe('203.0.113.9');
    // A trusted proxy that sent no header is the client itself.
    expect(clientAddressOf(request('10.0.0.5'), trust)).toBe('10.0.0.5');
  });

  it('believes X-Forwarded-For only from a trusted socket', () => {
    const trust = compileTrustedProxies('10.0.0.0/8');
    expect(clientAddressOf(request('198.51.100.20', '203.0.113.9'), trust)).toBe('198.51.100.20');
  });

  it('walks a chain of two trusted proxies', () => {
    // Load balancer 10.0.0.5 → ingress 192.168.1.7 → us; the client is what the load balancer saw.
    const trust = compileTrustedProxies('10.0.0.5, 192.168.1.0/24');
    expect(clientAddressOf(request('192.168.1.7', '203.0.113.9, 10.0.0.5'), trust)).toBe('203.0.113.9');
    expect(clientAddressOf(request('192.168.1.7', '192.0.2.1, 203.0.113.9, 10.0.0.5'), trust)).toBe('203.0.113.9');
  });

  it('does not believe a spoofed entry to the left of an untrusted hop, even one that names a trusted proxy', () => {
    const trust = compileTrustedProxies('10.0.0.0/8');
    // The client 203.0.113.9 sent "X-Forwarded-For: 10.0.0.7, 192.0.2.1"; the proxy 10.0.0.5 appended it.
    expect(clientAddressOf(request('10.0.0.5', '10.0.0.7, 192.0.2.1, 203.0.113.9'), trust)).toBe('203.0.113.9');
  });

  it('reads an IPv4-mapped socket address as IPv4, so a setting of 127.0.0.1 matches it', () => {
    expect(clientAddressOf(request('::ffff:127.0.0.1', '203.0.113.9'), compileTrustedProxies('127.0.0.1'))).toBe('203.0.113.9');
    expect(clientAddressOf(request('::ffff:127.0.0.1', '203.0.113.9'), compileTrustedProxies('loopback'))).toBe('203.0.113.9');
    expect(clientAddressOf(request('::ffff:198.51.100.20'), compileTrustedProxies(undefined))).toBe('198.51.100.20');
  });

  it('spells one IPv6 client one way', () => {
    const trust = compileTrustedProxies('loopback');
    expect(clientAddressOf(request('::1', '2001:DB8:0:0::1'), trust)).toBe('2001:db8::1');
    expect(clientAddressOf(request('::1', '::ffff:203.0.113.9'), trust)).toBe('203.0.113.9');
  });

  it('answers "unknown" for a request whose socket has no address left', () => {
    expect(clientAddressOf(request(undefined, '203.0.113.9'), compileTrustedProxies('10.0.0.0/8'))).toBe('unknown');
  });
});

describe('compileTrustedProxies', () => {
  it('takes addresses, CIDRs, netmasks and the named ranges', () => {
    const trust = compileTrustedProxies('203.0.113.4, 10.0.0.0/8,172.16.0.0/255.240.0.0 , fd00::/8, linklocal, uniquelocal, loopback');
    for (const proxy of ['203.0.113.4', '10.1.2.3', '172.20.0.1', 'fd12::1', '169.254.1.1', 'fe80::1', '192.168.0.1', '127.0.0.1', '::1']) {
      expect(trust(proxy, 0), proxy).toBe(true);
    }
    expect(trust('203.0.113.5', 0)).toBe(false);
  });

  it.each(['loopbak', '10.0.0.0/33', '10.0.0.0/8/8', 'proxy.internal', '010.0.0.1', '127.1', '10.0.0.1, nope'])(
    'refuses the setting %j, naming the bad entry',
    (setting) => {
      const bad = setting.split(',').at(-1)!.trim();
      expect(() => compileTrustedProxies(setting)).toThrow(`TRUSTED_PROXIES: "${bad}"`);
    },
  );
});

describe('lockoutKeyOf', () => {
  it('counts an IPv4 client by its address and an IPv6 client by its /64', () => {
    expect(lockoutKeyOf('198.51.100.7')).toBe('198.51.100.7');
    expect(lockoutKeyOf('2001:db8:1:2:aaaa::1')).toBe(lockoutKeyOf('2001:db8:1:2:ffff:ffff:ffff:ffff'));
    expect(lockoutKeyOf('2001:db8:1:2::1')).not.toBe(lockoutKeyOf('2001:db8:1:3::1'));
    expect(lockoutKeyOf('unknown')).toBe('unknown');
  });
});

describe('clientAddressOf on a kept-alive connection', () => {
  const socket = (remoteAddress: string) => ({ remoteAddress });
  const on = (s: { remoteAddress: string }, forwardedFor?: string) =>
    ({ headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor }, socket: s }) as unknown as IncomingMessage;

  it('reads X-Forwarded-For on every request from a trusted proxy, and never from a peer that is none', () => {
    const trust = compileTrustedProxies('10.0.0.0/8');
    const proxy = socket('10.0.0.5');
    expect(clientAddressOf(on(proxy, '203.0.113.9'), trust)).toBe('203.0.113.9');
    expect(clientAddressOf(on(proxy, '192.0.2.1'), trust)).toBe('192.0.2.1');
    const direct = socket('198.51.100.20');
    expect(clientAddressOf(on(direct), trust)).toBe('198.51.100.20');
    expect(clientAddressOf(on(direct, '203.0.113.9'), trust)).toBe('198.51.100.20');
  });

  it('answers as without the per-connection memo, for any sequence of requests, connections and settings', () => {
    const settings = [undefined, '10.0.0.0/8', 'loopback', '10.0.0.5, 192.168.1.0/24'].map(compileTrustedProxies);
    const peers = ['10.0.0.5', '127.0.0.1', '::ffff:127.0.0.1', '192.168.1.7', '198.51.100.20', '2001:DB8::1'];
    const hops = ['203.0.113.9', '10.0.0.7', '192.168.1.9', '::1', '2001:db8:0:0::2'];
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            connection: fc.nat(peers.length - 1),
            setting: fc.nat(settings.length - 1),
            forwardedFor: fc.option(
              fc.array(fc.constantFrom(...hops), { minLength: 1, maxLength: 3 }).map((h) => h.join(', ')),
              { nil: undefined },
            ),
          }),
          { maxLength: 30 },
        ),
        (requests) => {
          const connections = peers.map(socket);
          for (const { connection, setting, forwardedFor } of requests) {
            const trust = settings[setting]!;
            const memoized = clientAddressOf(on(connections[connection]!, forwardedFor), trust);
            const fresh = clientAddressOf(on(socket(peers[connection]!), forwardedFor), trust);
            expect(memoized).toBe(fresh);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
