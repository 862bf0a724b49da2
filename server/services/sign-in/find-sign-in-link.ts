import { eq } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { signInLinks } from '@/db/schema';
import { hashToken } from '@/server/auth/tokens';

/** The sign-in link a token opens, used or not (the exchange says which); undefined for an unknown token. */
export async function findSignInLinkByToken({ db, token }: { db: Queryable; token: string }): Promise<{ id: string } | undefined> {
  const [link] = await db
    .select({ id: signInLinks.id })
    .from(signInLinks)
    .where(eq(signInLinks.tokenHash, hashToken(token)));
  return link;
}
