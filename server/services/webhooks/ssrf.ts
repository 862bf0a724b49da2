import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { config } from '@/server/config';
import { badRequest } from '@/server/errors';

export interface UrlPolicy {
  /** Allow targets on private, loopback, link-local… addresses (WEBHOOK_ALLOW_PRIVATE=1: tests, local development). */
  allowPrivate: boolean;
  /** Only https URLs (live mode). */
  requireHttps: boolean;
  /** Name WEBHOOK_ALLOW_PRIVATE=1 in a refusal (outside live mode, where the setting is allowed). */
  hintAllowPrivate?: boolean;
}

const ALLOW_PRIVATE_HINT = ' For local development, start the service with WEBHOOK_ALLOW_PRIVATE=1.';

/**
 * Where webhooks may point: https only in live mode; private targets only with
 * WEBHOOK_ALLOW_PRIVATE=1 (tests, local development; refused with APP_ENV=live).
 */
export function webhookUrlPolicy(): UrlPolicy {
  const { APP_ENV, WEBHOOK_ALLOW_PRIVATE } = config();
  const live = APP_ENV === 'live';
  return { allowPrivate: WEBHOOK_ALLOW_PRIVATE === '1', requireHttps: live, hintAllowPrivate: !live };
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

/** IANA global unicast: every address routed on the public IPv6 internet lies in 2000::/3. */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

/** Not global, yet inside 2000::/3 and 'unicast' to ipaddr.js 2.3. */
const NOT_GLOBAL_V6 = [
  ipaddr.IPv6.parseCIDR('3fff::/20'), // documentation (RFC 9637), newer than ipaddr.js 2.3
];

/**
 * ipaddr.js names every special range (6to4, Teredo, NAT64, IPv4-mapped and -translated,
 * documentation, benchmarking, ORCHID…) and calls the rest 'unicast'. Outside 2000::/3 its
 * 'unicast' also covers unassigned space, deprecated site-local fec0::/10, IPv4-compatible
 * ::/96 and NAT64 local-use 64:ff9b:1::/48: the 2000::/3 test refuses those.
 */
function isGlobalUnicastV6(address: ipaddr.IPv6): boolean {
  return address.match(GLOBAL_UNICAST_V6) && address.range() === 'unicast' && !NOT_GLOBAL_V6.some((cidr) => address.match(cidr));
}

/**
 * True when a webhook must not be sent to this address: anything that is not
 * global unicast (loopback, private, link-local, CGNAT, multicast, unspecified,
 * reserved, documentation, cloud metadata) and every IPv6 form that embeds an
 * IPv4 address or tunnels to one. Anything that is not an IP address is refused too.
 */
export function isForbiddenAddress(ip: string): boolean {
  const text = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  // node:net decides what is an address, as the connection will; ipaddr.js parses all it accepts.
  const family = isIP(text);
  if (family === 4) return ipaddr.IPv4.parse(text).range() !== 'unicast';
  if (family === 6) return !isGlobalUnicastV6(ipaddr.IPv6.parse(text));
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
      // The hint is in the field message too: the console shows that one under the URL field.
      const hint = opts.hintAllowPrivate ? ALLOW_PRIVATE_HINT : '';
      refuse(
        `url must point to a public address (global unicast): private, loopback, link-local, multicast, metadata, documentation and IPv4-embedded IPv6 addresses are refused.${hint}`,
        `${host} resolves to a non-public address.${hint}`,
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
