import { eq } from 'drizzle-orm';
import { serviceAccounts, users } from '@/db/schema';
import { authedProcedure } from '@/server/trpc';
import { getMeInput, meSchema } from './get-me.types';

export const getMeRoute = authedProcedure
  .meta({ openapi: { method: 'GET', path: '/me', tags: ['me'], summary: 'The calling API key and who it belongs to', protect: true } })
  .input(getMeInput)
  .output(meSchema)
  .query(async ({ ctx: { principal, db } }) => {
    // The key's own owner, by primary key (not a tenant table: names only).
    const [owner] = principal.userId
      ? await db.select({ name: users.name }).from(users).where(eq(users.id, principal.userId))
      : await db.select({ name: serviceAccounts.name }).from(serviceAccounts).where(eq(serviceAccounts.id, principal.serviceAccountId!));
    return {
      key_id: principal.keyId,
      key_name: principal.keyName,
      super_user: principal.superUser,
      scopes: [...principal.scopes].map(([network_id, role]) => ({ network_id, role })),
      owner: principal.userId
        ? { type: 'person' as const, id: principal.userId, name: owner?.name ?? '' }
        : { type: 'service_account' as const, id: principal.serviceAccountId!, name: owner?.name ?? '' },
    };
  });
