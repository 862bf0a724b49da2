import type { IncomingMessage } from 'node:http';
import { isIP, type Socket } from 'node:net';
import ipaddr from 'ipaddr.js';
import proxyaddr from 'proxy-addr';

/** Whether the address at `hop` (0 is the socket, then X-Forwarded-For from the right) is a proxy we believe. */
export type TrustedProxies = (address: string, hop: number) => boolean;

/** The names proxy-addr expands to ranges (loopback: 127.0.0.1/8 and ::1…). */
const NAMED_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

const trustNobody: TrustedProxies = () => false;

function checkEntry(entry: string): void {
  const address = entry.split('/')[0] ?? '';
  try {
    // proxy-addr's ipaddr.js 1.x also reads 127.1, 0x7f.0.0.1 and 010.0.0.1 (as octal 8.0.0.1): plain forms only.
    if (!NAMED_RANGES.includes(entry) && !isIP(address)) throw new Error(`${address} is not an IP address`);
    proxyaddr.compile(entry);
  } catch (cause) {
    throw new Error(`TRUSTED_PROXIES: "${entry}" is not an IP address, a CIDR or one of ${NAMED_RANGES.join(', ')}.`, { cause });
  }
}

/**
 * TRUSTED_PROXIES → the proxies whose X-Forwarded-For is believed: comma-separated addresses,
 * CIDRs and the names loopback, linklocal, uniquelocal. Unset or empty trusts nobody. A bad
 * entry throws, naming it, so the service refuses to start with it.
 */
export function compileTrustedProxies(setting: string | undefined): TrustedProxies {
  const entries = (setting ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0) return trustNobody;
  entries.forEach(checkEntry);
  return proxyaddr.compile(entries);
}

/**
 * What failed authentications are counted by: the address, or for IPv6 its /64 — one
 * subscriber usually holds a whole /64 and could otherwise step around the lockout.
 */
export function lockoutKeyOf(address: string): string {
  if (isIP(address) !== 6) return address;
  const parts = ipaddr.IPv6.parse(address).parts.slice(0, 4);
  return `${parts.map((p) => p.toString(16)).join(':')}::/64`;
}

/**
 * The client's address: the socket's, unless it is a trusted proxy; then X-Forwarded-For read
 * from the right, one hop at a time while each hop is trusted, and the first untrusted hop is
 * the client (entries further left are whatever the client chose to send). IPv4-mapped IPv6
 * (`::ffff:127.0.0.1`) comes back as IPv4 and IPv6 in one spelling, so one client is one key.
 */
export function clientAddressOf(req: IncomingMessage, trust: TrustedProxies): string {
  const socket = req.socket as Socket | undefined;
  const known = socket && directClients.get(socket);
  if (known?.trust === trust) return known.address;
  // Typed string, but undefined when the socket is already closed.
  const address: string | undefined = proxyaddr(req, trust);
  if (address === undefined) return 'unknown';
  const client = normalized(address);
  // A peer that is no trusted proxy is the client on every request of its connection, whatever
  // X-Forwarded-For says (proxyaddr stops at hop 0): worked out once per connection, not per request.
  const peer = socket?.remoteAddress;
  if (socket && peer !== undefined && !trust(peer, 0)) directClients.set(socket, { trust, address: client });
  return client;
}

const normalized = (address: string) => (isIP(address) ? ipaddr.process(address).toString() : address);

/** Connections whose peer is the client (not a trusted proxy), with the trust that said so. */
const directClients = new WeakMap<Socket, { trust: TrustedProxies; address: string }>();
