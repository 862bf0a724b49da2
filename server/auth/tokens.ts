import { hash, randomInt } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 40 base62 characters ≈ 238 bits of entropy. */
const SECRET_LENGTH = 40;

export type KeyEnvironment = 'test' | 'live';

export const API_KEY_PATTERN = /^sk_(test|live)_[0-9A-Za-z]{32,}$/;

function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += BASE62[randomInt(62)];
  return out;
}

/** A new API key token: `sk_test_` or `sk_live_` and 40 random base62 characters. */
export function generateApiKeyToken(environment: KeyEnvironment): string {
  return `sk_${environment}_${randomBase62(SECRET_LENGTH)}`;
}

/** Random secret with a prefix (`inv_…` invitation tokens and the like). */
export function generateSecretToken(prefix: string, length = SECRET_LENGTH): string {
  return `${prefix}_${randomBase62(length)}`;
}

/**
 * What we store instead of a token. Tokens have ≥ 190 bits of entropy, so a plain SHA-256 suffices.
 * (`crypto.hash`, one call: no Hash object per request.)
 */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/** The recognisable start of a token, shown in lists: `sk_test_AbCd`. */
export function tokenStart(token: string): string {
  const prefixEnd = token.lastIndexOf('_') + 1;
  return token.slice(0, prefixEnd + 4);
}
