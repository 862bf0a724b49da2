import { eq, sql } from 'drizzle-orm';
import type { Database, Tx } from '@/db/client';
import { newId } from '@/db/ids';
import { apiKeys, users } from '@/db/schema';
import { API_KEY_PATTERN, hashToken, type KeyEnvironment } from '@/server/auth/tokens';
import { mintApiKey } from './mint-api-key';

const BOOTSTRAP_LOCK_ID = 7_242_031_002;

/** The platform operator's address: a placeholder that binds the person, not a mailbox (it never signs in by email). */
export const OPERATOR_EMAIL = 'operator@localhost';

/** The person that owns keys made at start or by the CLI, created once. */
async function platformOperator(tx: Tx): Promise<string> {
  const email = OPERATOR_EMAIL;
  await tx
    .insert(users)
    .values({ id: newId('user'), email, name: 'Platform operator' })
    .onConflictDoNothing();
  const [row] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email));
  return row!.id;
}

/** A super_user key for the platform operator (the CLI), in APP_ENV's mode, like every key without scopes. */
export async function createSuperUserKey({ db, ...input }: { db: Database; name: string }): Promise<string> {
  return db.transaction(async (tx) => {
    const userId = await platformOperator(tx);
    const { token } = await mintApiKey({ tx, ...input, owner: { userId }, creator: 'platform', superUser: true });
    return token;
  });
}

export type BootstrapResult =
  | { kind: 'configured-created' }
  | { kind: 'configured-present' }
  | { kind: 'first-start'; token: string }
  | { kind: 'live-without-key' }
  | { kind: 'nothing' };

/**
 * Make sure someone can call the API after start:
 * - BOOTSTRAP_SUPERUSER_TOKEN set: that token becomes a super_user key if no key has it;
 * - otherwise, on an empty database (no keys at all), a fresh super_user token
 *   is created and returned, for the caller to print once — in test mode only: in
 *   live mode nothing is made (`live-without-key`), since stdout is where the logs
 *   go (docs/SECURITY.md, G12); the operator sets the variable or runs the CLI.
 * Serialised by an advisory lock so two processes starting together make one key.
 */
export async function bootstrapSuperUser({
  db,
  token,
  environment,
}: {
  db: Database;
  token?: string | undefined;
  environment: KeyEnvironment;
}): Promise<BootstrapResult> {
  if (token !== undefined && !API_KEY_PATTERN.test(token)) {
    throw new Error('BOOTSTRAP_SUPERUSER_TOKEN must look like sk_test_… or sk_live_… followed by at least 32 letters or digits.');
  }
  if (token !== undefined && !token.startsWith(`sk_${environment}_`)) {
    // G13: a test key that finds its way into a live deployment (or the reverse) is refused at the door.
    throw new Error(`BOOTSTRAP_SUPERUSER_TOKEN must start with sk_${environment}_ when APP_ENV=${environment}.`);
  }
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${BOOTSTRAP_LOCK_ID})`);
    if (token) {
      const [existing] = await tx
        .select({ id: apiKeys.id })
        .from(apiKeys)
        .where(eq(apiKeys.tokenHash, hashToken(token)));
      if (existing) return { kind: 'configured-present' } as const;
      const userId = await platformOperator(tx);
      await mintApiKey({ tx, name: 'bootstrap', owner: { userId }, creator: 'platform', superUser: true, token });
      return { kind: 'configured-created' } as const;
    }
    const [anyKey] = await tx.select({ id: apiKeys.id }).from(apiKeys).limit(1);
    if (anyKey) return { kind: 'nothing' } as const;
    if (environment === 'live') return { kind: 'live-without-key' } as const;
    const userId = await platformOperator(tx);
    const minted = await mintApiKey({ tx, name: 'first-start', owner: { userId }, creator: 'platform', superUser: true });
    return { kind: 'first-start', token: minted.token } as const;
  });
}
