import { authedProcedure } from '@/server/trpc';
import { getMeInput, meSchema } from './get-me.types';

export const getMeRoute = authedProcedure
  .meta({ openapi: { method: 'GET', path: '/me', tags: ['me'], summary: 'The calling API key and who it belongs to', protect: true } })
  .input(getMeInput)
  .output(meSchema)
  .query(({ ctx: { principal } }) => ({
    key_id: principal.keyId,
    key_name: principal.keyName,
    super_user: principal.superUser,
    session: principal.session,
    mode: principal.mode,
    expires_at: principal.expiresAt === null ? null : new Date(principal.expiresAt).toISOString(),
    scopes: [...principal.scopes].map(([network_id, role]) => ({ network_id, role })),
    // Read with the key itself (server/auth/principal.ts): no second query.
    owner: principal.userId
      ? { type: 'person' as const, id: principal.userId, name: principal.ownerName }
      : { type: 'service_account' as const, id: principal.serviceAccountId!, name: principal.ownerName },
  }));
