import { and, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Queryable, Tx } from '@/db/client';
import { newId } from '@/db/ids';
import { passkeyChallenges } from '@/db/schema';
import { conflict } from '@/server/errors';
import { CHALLENGE_MINUTES } from './challenge-lifetime';

type Purpose = (typeof passkeyChallenges.$inferSelect)['purpose'];

/**
 * Stores a challenge the browser will sign. Each insert also clears up to 100 expired ones, so the
 * table holds about what was asked for in the last CHALLENGE_MINUTES.
 */
export async function storeChallenge({ db, purpose, challenge, userId }: { db: Queryable; purpose: Purpose; challenge: string; userId?: string }) {
  const expired = db
    .select({ id: passkeyChallenges.id })
    .from(passkeyChallenges)
    .where(lt(passkeyChallenges.expiresAt, sql`now()`))
    .limit(100);
  await db.delete(passkeyChallenges).where(inArray(passkeyChallenges.id, expired));
  const id = newId('passkeyChallenge');
  await db.insert(passkeyChallenges).values({
    id,
    purpose,
    challenge,
    userId: userId ?? null,
    expiresAt: sql`now() + make_interval(mins => ${CHALLENGE_MINUTES})`,
  });
  return id;
}

/** The challenge, if it is still usable (read only: the gate checks a signature against it). */
export async function readChallenge({ db, id, purpose }: { db: Queryable; id: string; purpose: Purpose }) {
  const [row] = await db
    .select({ challenge: passkeyChallenges.challenge })
    .from(passkeyChallenges)
    .where(
      and(
        eq(passkeyChallenges.id, id),
        eq(passkeyChallenges.purpose, purpose),
        isNull(passkeyChallenges.usedAt),
        gt(passkeyChallenges.expiresAt, sql`now()`),
      ),
    );
  return row;
}

export const challengeSpent = () =>
  conflict(`This passkey challenge was already used or has expired (each works once, for ${CHALLENGE_MINUTES} minutes). Start again.`);

/** Uses the challenge up, in the caller's transaction: of two requests with one challenge, one wins; the other is a 409. */
export async function useChallenge({ tx, id, purpose, userId }: { tx: Tx; id: string; purpose: Purpose; userId?: string }): Promise<string> {
  const [row] = await tx
    .update(passkeyChallenges)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(passkeyChallenges.id, id),
        eq(passkeyChallenges.purpose, purpose),
        userId === undefined ? isNull(passkeyChallenges.userId) : eq(passkeyChallenges.userId, userId),
        isNull(passkeyChallenges.usedAt),
        gt(passkeyChallenges.expiresAt, sql`now()`),
      ),
    )
    .returning({ challenge: passkeyChallenges.challenge });
  if (!row) throw challengeSpent();
  return row.challenge;
}
