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
  flight: 'flt',
  podcast: 'pod',
  offer: 'off',
  creative: 'crv',
  webhook: 'whk',
  email: 'eml',
  signInLink: 'sil',
  passkey: 'pky',
  passkeyChallenge: 'pkc',
  voiceConsent: 'vcn',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let poolOffset = 0;

/**
 * `n` bytes from the CSPRNG, handed out of a 4 KiB block drawn at once: a `randomBytes` call
 * costs a few µs however few bytes it returns, and every id and every sealed answer takes one
 * (docs/PERFORMANCE.md, "/v1 at the speed of a bare server"). No byte is handed out twice; a
 * block is never refilled in place, so what a caller holds stays as it was given.
 */
export function pooledRandomBytes(n: number): Buffer {
  if (n > POOL_BYTES) return randomBytes(n);
  if (poolOffset + n > pool.length) {
    pool = randomBytes(POOL_BYTES);
    poolOffset = 0;
  }
  poolOffset += n;
  return pool.subarray(poolOffset - n, poolOffset);
}

/** The 80 random bits as two 40-bit halves (numbers, exact below 2^53: no BigInt per id). */
const HALF = 2 ** 40;
let lastMs = 0;
let randomHigh = 0;
let randomLow = 0;

/** `value` (< 2^50) as `length` base32 characters, most significant first. */
function encode(value: number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out = ALPHABET[value % 32]! + out;
    value = Math.floor(value / 32);
  }
  return out;
}

export function newId(kind: IdKind): string {
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    const bytes = pooledRandomBytes(10);
    randomHigh = bytes.readUIntBE(0, 5);
    randomLow = bytes.readUIntBE(5, 5);
  } else if (++randomLow === HALF) {
    randomLow = 0;
    randomHigh = (randomHigh + 1) % HALF;
  }
  return `${ID_PREFIXES[kind]}_${encode(lastMs, 10)}${encode(randomHigh, 8)}${encode(randomLow, 8)}`;
}

const ID_BODY = /^[0-9a-hjkmnp-tv-z]{26}$/;

/** True when `value` looks like an id of `kind` (used to answer 404 without a query). */
export function isId(kind: IdKind, value: string): boolean {
  const prefix = `${ID_PREFIXES[kind]}_`;
  return value.startsWith(prefix) && ID_BODY.test(value.slice(prefix.length));
}
