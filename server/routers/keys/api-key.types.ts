import { z } from 'zod';
import { pageOf } from '@/server/http/page';
import type { apiKeys } from '@/db/schema';
import type { Role } from '@/domain/roles';
import { KEY_STATUSES } from '@/domain/statuses';
import { keyStatus } from '@/server/services/keys/key-status';
import { idField, iso, isoOrNull, maxCharacters, roleSchema, timestamp } from '@/server/routers/shared.types';

export const scopeInput = z.strictObject({
  network_id: z.string().min(1),
  role: roleSchema,
});

/** What every key-creating request accepts (own keys, keys minted for a member or service account). */
export const keyFields = {
  key_name: z
    .string({ error: 'key_name is required.' })
    .trim()
    .min(1, 'key_name must not be blank.')
    .check(maxCharacters(200, 'key_name must be at most 200 characters.')),
  expires_at: z.iso
    .datetime({ offset: true, error: 'expires_at must be an ISO 8601 timestamp, e.g. 2027-01-01T00:00:00Z.' })
    .optional()
    .meta({ description: 'When the key stops working. Omit for a key that does not expire.' }),
};

export const apiKeySchema = z
  .object({
    id: idField('key'),
    key_name: z.string(),
    start: z.string().meta({ description: 'The first characters of the token, to recognise it.' }),
    environment: z.enum(['test', 'live']),
    super_user: z.boolean(),
    session: z.boolean().meta({ description: 'A console session’s key, got by signing in: it expires within hours and ends at sign-out.' }),
    scopes: z.array(z.object({ network_id: z.string(), role: roleSchema })),
    owner: z.object({ type: z.enum(['person', 'service_account']), id: z.string() }),
    status: z.enum(KEY_STATUSES),
    created_at: timestamp,
    expires_at: timestamp.nullable(),
    revoked_at: timestamp.nullable().meta({ description: 'When it stopped (or, during a rotation grace period, will stop) working.' }),
    last_used_at: timestamp.nullable().meta({ description: 'To the minute.' }),
    replaced_by_key_id: z.string().nullable(),
  })
  .meta({ id: 'ApiKey' });

export const createdApiKeySchema = apiKeySchema
  .extend({ token: z.string().meta({ description: 'The secret. Returned only now; it cannot be retrieved later.' }) })
  .meta({ id: 'CreatedApiKey' });

export type ApiKey = z.infer<typeof apiKeySchema>;
type KeyRow = typeof apiKeys.$inferSelect;

export function presentApiKey(row: KeyRow, scopes: Array<{ networkId: string; role: Role }>): ApiKey {
  return {
    id: row.id,
    key_name: row.name,
    start: row.start,
    environment: row.environment,
    super_user: row.superUser,
    session: row.session,
    scopes: scopes.map((s) => ({ network_id: s.networkId, role: s.role })),
    owner: row.userId ? { type: 'person', id: row.userId } : { type: 'service_account', id: row.serviceAccountId! },
    status: keyStatus(row),
    created_at: iso(row.createdAt),
    expires_at: isoOrNull(row.expiresAt),
    revoked_at: isoOrNull(row.revokedAt),
    last_used_at: isoOrNull(row.lastUsedAt),
    replaced_by_key_id: row.replacedByKeyId,
  };
}

export const keyIdParam = { keyId: z.string().min(1).meta({ description: 'API key id (key_…).' }) };
export const apiKeyListSchema = pageOf(apiKeySchema).meta({ id: 'ApiKeyList' });
