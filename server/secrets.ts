import { createHmac, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import { instanceSecrets } from '../db/schema';
import { config } from './config';

let rootSecret: string | undefined;

/**
 * The root secret that signs cursors and encrypts stored secrets.
 * APP_SECRET_KEY in live mode (required); in test mode, when unset, one is
 * generated once per database so every process of the instance agrees.
 */
export async function loadAppSecret(db: Queryable): Promise<void> {
  const configured = config().APP_SECRET_KEY;
  if (configured) {
    rootSecret = configured;
    return;
  }
  await db
    .insert(instanceSecrets)
    .values({ name: 'app_secret_key', value: randomBytes(32).toString('base64url') })
    .onConflictDoNothing();
  const [row] = await db.select().from(instanceSecrets).where(eq(instanceSecrets.name, 'app_secret_key'));
  rootSecret = row!.value;
}

/** A sub-key for one purpose, so no two features share key material. */
export function derivedKey(purpose: string): Buffer {
  if (!rootSecret) throw new Error('app secret not loaded: call loadAppSecret() at start');
  return createHmac('sha256', rootSecret).update(purpose).digest();
}
