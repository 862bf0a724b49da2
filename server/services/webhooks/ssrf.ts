import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import { config } from '../../config';
import { badRequest } from '../../errors';

export interface UrlPolicy {
  /** Allow targets on private, loopback, link-local… addresses (WEBHOOK_ALLOW_PRIVATE=1: tests, local development). */
  allowPrivate: boolean;
  /** Only https URLs (live mode). */
  requireHttps: boolean;
}

/**
 * Where webhooks may point: https only in live mode; private targets only with
 * WEBHOOK_ALLOW_PRIVATE=1 (tests, local development). Read on every call.
 */
export function webhookUrlPolicy(): UrlPolicy {
  return { allowPrivate: process.env.WEBHOOK_ALLOW_PRIVATE === '1', requireHttps: config().APP_ENV === 'live' };
}

export interface VettedAddress {
  address: string;
  family: 4 | 6;
}

/** A checked target: the parsed URL and every address its host resolved to, all allowed by the policy. */
export interface VettedTarget {
  url: URL;
  addresses: VettedAddress[];
}

/** Resolves a host name to its addresses (the system resolver by default; tests inject their own). */
export type HostResolver = (host: string) => Promise<VettedAddress[]>;

/** getaddrinfo, as a connection would resolve the host, every address in the resolver's order. */
export const systemResolver: HostResolver = async (host) => {
  const found = await dns.lookup(host, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family as 4 | 6 }));
};

/** An IPv4 range as [network as 32-bit int, prefix length]. */
const FORBIDDEN_V4: Array<[string, number]> = [
  ['0.0.0.0', 8], // "this network", includes the unspecified address
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, includes the cloud metadata address 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, includes broadcast 255.255.255.255
];

function v4ToInt(ip: string): number {
  return ip.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
}

function inV4Range(ip: number, [base, prefix]: [string, number]): boolean {
  const size = 2 ** (32 - prefix);
  const start = v4ToInt(base);
  return ip >= start && ip < start + size;
}

function isForbiddenV4(ip: string): boolean {
  const n = v4ToInt(ip);
  return FORBIDDEN_V4.some((range) => inV4Range(n, range));
}

/** The 16 bytes of an IPv6 address (any textual form, including an embedded IPv4 tail). */
function v6Bytes(ip: string): number[] {
  let text = ip.split('%')[0]!; // drop a zone id
  const bytes: number[] = [];
  let tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  const maybeV4 = text.slice(lastColon + 1);
  if (maybeV4.includes('.')) {
    tail = maybeV4.split('.').map(Number);
    text = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const groups = (s: string) => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const left = groups(head);
  const right = rest === undefined ? [] : groups(rest);
  const missing = 8 - left.length - right.length;
  const all = [...left, ...Array<number>(rest === undefined ? 0 : missing).fill(0), ...right];
  for (const g of all) bytes.push((g >> 8) & 0xff, g & 0xff);
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

function hasPrefix(bytes: number[], prefix: number[], bits: number): boolean {
  for (let i = 0; i < bits; i++) {
    const byte = i >> 3;
    const mask = 0x80 >> (i & 7);
    if ((bytes[byte]! & mask) !== (prefix[byte]! & mask)) return false;
  }
  return true;
}

function isForbiddenV6(ip: string): boolean {
  const b = v6Bytes(ip);
  const zeroes = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  const embeddedV4 = () => b.slice(12, 16).join('.');
  if (zeroes(0, 16)) return true; // :: unspecified
  if (zeroes(0, 15) && b[15] === 1) return true; // ::1 loopback
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d): judge the IPv4 address.
  if (zeroes(0, 10) && b[10] === 0xff && b[11] === 0xff) return isForbiddenV4(embeddedV4());
  if (zeroes(0, 12)) return isForbiddenV4(embeddedV4());
  // NAT64 well-known prefix 64:ff9b::/96 reaches the embedded IPv4 address.
  if (hasPrefix(b, [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0], 96)) return isForbiddenV4(embeddedV4());
  if (hasPrefix(b, [0xfc], 7)) return true; // unique local fc00::/7, includes AWS metadata fd00:ec2::254
  if (hasPrefix(b, [0xfe, 0x80], 10)) return true; // link-local fe80::/10
  if (hasPrefix(b, [0xfe, 0xc0], 10)) return true; // deprecated site-local fec0::/10
  if (b[0] === 0xff) return true; // multicast ff00::/8
  return false;
}

/**
 * True when a webhook must not be sent to this address: loopback, private,
 * link-local, CGNAT, multicast, unspecified, reserved, cloud metadata, or an
 * IPv4-mapped IPv6 form of any of those. Anything that is not an IP address is
 * refused too.
 */
export function isForbiddenAddress(ip: string): boolean {
  const text = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const family = isIP(text.split('%')[0]!);
  if (family === 4) return isForbiddenV4(text);
  if (family === 6) return isForbiddenV6(text);
  return true;
}

function refuse(detail: string, message = detail): never {
  throw badRequest(detail, [{ path: 'url', message }]);
}

/**
 * Check a webhook target URL and resolve its host. Every address the host
 * resolves to must be allowed (one private answer is enough to refuse: DNS
 * could hand it out at delivery time). Returns the vetted addresses, so a
 * delivery can connect to exactly those and not resolve a second time
 * (DNS rebinding).
 */
export async function resolveDeliverableUrl(url: string, opts: UrlPolicy, resolveHost: HostResolver = systemResolver): Promise<VettedTarget> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refuse('url must be an absolute http or https URL.');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') refuse('url must be an http or https URL.');
  if (opts.requireHttps && parsed.protocol !== 'https:') refuse('url must be an https URL.');
  if (parsed.username || parsed.password) refuse('url must not contain credentials.');
  const host = parsed.hostname.startsWith('[') ? parsed.hostname.slice(1, -1) : parsed.hostname;
  if (!host) refuse('url must name a host.');

  let addresses: VettedAddress[];
  const literal = isIP(host);
  if (literal) {
    addresses = [{ address: host, family: literal as 4 | 6 }];
  } else {
    try {
      addresses = await resolveHost(host);
    } catch {
      return refuse(`url host ${host} could not be resolved.`);
    }
    if (addresses.length === 0) refuse(`url host ${host} could not be resolved.`);
  }
  if (!opts.allowPrivate) {
    const bad = addresses.find((a) => isForbiddenAddress(a.address));
    if (bad) {
      refuse(
        'url must point to a public address: private, loopback, link-local, multicast and metadata addresses are refused.',
        `${host} resolves to a non-public address.`,
      );
    }
  }
  return { url: parsed, addresses };
}

/**
 * Refuse (400, `errors[0].path = 'url'`) a webhook URL that is not deliverable under the policy.
 * Returns the vetted target (the same as `resolveDeliverableUrl`): a delivery must connect to
 * exactly `addresses` (see `postPinned` in deliver.ts), never resolve the host again.
 */
export async function assertDeliverableUrl(url: string, opts: UrlPolicy, resolveHost: HostResolver = systemResolver): Promise<VettedTarget> {
  return resolveDeliverableUrl(url, opts, resolveHost);
}
