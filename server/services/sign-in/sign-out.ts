import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { apiKeys } from '@/db/schema';
import type { Principal } from '@/server/auth/principal';
import { badRequest } from '@/server/errors';

/**
 * End the calling session: its key expires now, so it is refused from the next request (and a
 * write of it still in flight is refused at commit). Ending is not revoking: the invitations the
 * session sent stay good while their sender still administers the network (docs/keys-and-roles.md).
 */
export async function signOut({ tx, principal }: { tx: Tx; principal: Principal }): Promise<{ keyId: string }> {
  if (!principal.session) {
    throw badRequest('Only a console session signs out. To stop an API key, revoke it: DELETE /v1/apikeys/{keyId}.');
  }
  await tx
    .update(apiKeys)
    .set({ expiresAt: sql`now()` })
    .where(and(eq(apiKeys.id, principal.keyId), eq(apiKeys.session, true)));
  return { keyId: principal.keyId };
}
