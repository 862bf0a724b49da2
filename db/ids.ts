import { randomBytes } from 'node:crypto';

/**
 * Prefixed, time-sortable identifiers (TypeID style): `net_01jd…`.
 * 48 bits of milliseconds then 80 random bits, Crockford base32, lower case.
 * Within one millisecond the random part is incremented, so ids made by one
 * process sort in creation order — "ordered by id" means creation order.
 */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

export const ID_PREFIXES = {
  user: 'usr',
  network: 'net',
  membership: 'mem',
  apiKey: 'key',
  serviceAccount: 'sa',
  event: 'evt',
  invitation: 'ivt',
  auditEntry: 'aud',
  advertiser: 'adv',
  campaign: 'cmp',
  podcast: 'pod',
  offer: 'off',
  creative: 'crv',
  webhook: 'whk',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

let lastMs = 0;
let lastRandom = 0n;

function encode(value: bigint, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out = ALPHABET[Number(value & 31n)] + out;
    value >>= 5n;
  }
  return out;
}

export function newId(kind: IdKind): string {
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    lastRandom = BigInt(`0x${randomBytes(10).toString('hex')}`);
  } else {
    lastRandom = (lastRandom + 1n) & ((1n << 80n) - 1n);
  }
  return `${ID_PREFIXES[kind]}_${encode(BigInt(lastMs), 10)}${encode(lastRandom, 16)}`;
}

const ID_BODY = /^[0-9a-hjkmnp-tv-z]{26}$/;

/** True when `value` looks like an id of `kind` (used to answer 404 without a query). */
export function isId(kind: IdKind, value: string): boolean {
  const prefix = `${ID_PREFIXES[kind]}_`;
  return value.startsWith(prefix) && ID_BODY.test(value.slice(prefix.length));
}
