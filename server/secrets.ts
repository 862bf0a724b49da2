import { createCipheriv, createDecipheriv, createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { pooledRandomBytes } from '@/db/ids';
import { instanceSecrets } from '@/db/schema';
import { config } from './config';

let rootSecret: string | undefined;
/**
 * Sub-keys by purpose (a handful of fixed names), for the current root secret, as KeyObjects:
 * a cursor or a sealed answer costs no key derivation, and Node 24 takes a KeyObject about four
 * times faster than key bytes (HMAC 4 µs vs 16, AES-GCM seal 5 µs vs 19; docs/PERFORMANCE.md,
 * "/v1 at the speed of a bare server").
 */
const derived = new Map<string, KeyObject>();

/**
 * The root secret that signs cursors and encrypts stored secrets.
 * APP_SECRET_KEY in live mode (required); in test mode, when unset, one is
 * generated once per database so every process of the instance agrees.
 */
export async function loadAppSecret(db: Queryable): Promise<void> {
  const configured = config().APP_SECRET_KEY;
  if (configured) {
    setRootSecret(configured);
    return;
  }
  await db
    .insert(instanceSecrets)
    .values({ name: 'app_secret_key', value: randomBytes(32).toString('base64url') })
    .onConflictDoNothing();
  const [row] = await db.select().from(instanceSecrets).where(eq(instanceSecrets.name, 'app_secret_key'));
  setRootSecret(row!.value);
}

function setRootSecret(secret: string): void {
  rootSecret = secret;
  derived.clear();
}

/** A sub-key for one purpose, so no two features share key material. */
export function derivedKey(purpose: string): KeyObject {
  if (!rootSecret) throw new Error('app secret not loaded: call loadAppSecret() at start');
  let key = derived.get(purpose);
  if (!key) derived.set(purpose, (key = createSecretKey(createHmac('sha256', rootSecret).update(purpose).digest())));
  return key;
}

/**
 * Encrypt a value for storage (AES-256-GCM under a sub-key of the app secret):
 * `v1.<iv>.<ciphertext>.<tag>`, base64url. For anything that must come back
 * but must not rest in plain text (stored responses carrying a token, webhook secrets).
 */
export function sealSecret(purpose: string, plaintext: string): string {
  const iv = pooledRandomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', derivedKey(`seal:${purpose}`), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv, body, cipher.getAuthTag()].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

export function openSecret(purpose: string, sealed: string): string {
  const [version, iv, body, tag] = sealed.split('.');
  if (version !== 'v1' || !iv || body === undefined || !tag) throw new Error('not a sealed value');
  const decipher = createDecipheriv('aes-256-gcm', derivedKey(`seal:${purpose}`), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}
