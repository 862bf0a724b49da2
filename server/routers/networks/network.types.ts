import { z } from 'zod';
import type { NetworkRow } from '@/server/services/networks/find-network';
import { MAX_KEY_LIFETIME_DAYS } from '@/domain/key-lifetime';
import { MODES } from '@/domain/modes';
import { versionedFields, versionedOf } from '@/server/routers/shared.types';

const KEY_LIFETIME =
  'The longest a key scoped to this network may live, in days (1–3650); null: no limit. A key minted with a later `expires_at` is a 400 ' +
  'naming the limit, and one minted without gets the longest allowed. Lowering it leaves existing keys as they are.';

/** `max_key_lifetime_days` as a network's create and PATCH take it. */
export const keyLifetimeField = z
  .number({ error: 'max_key_lifetime_days must be a whole number of days, or null.' })
  .int('max_key_lifetime_days must be a whole number of days, or null.')
  .min(1, 'max_key_lifetime_days must be at least 1.')
  .max(MAX_KEY_LIFETIME_DAYS, `max_key_lifetime_days must be at most ${MAX_KEY_LIFETIME_DAYS}.`)
  .nullable()
  .meta({ description: KEY_LIFETIME });

export const networkSchema = z
  .object({
    id: z.string().meta({ example: 'net_01jd8x6v2c9q7r5t3w1y0zabcd' }),
    name: z.string(),
    mode: z.enum(MODES).meta({
      description:
        'A `test` network is a sandbox: only `sk_test_` keys reach it (and the live operator\'s), it never calls the voice vendor, and its deliveries say `"test": true`. Fixed at creation.',
    }),
    max_key_lifetime_days: z.number().int().nullable().meta({ description: KEY_LIFETIME }),
    ...versionedFields,
  })
  .meta({ id: 'Network' });

export type Network = z.infer<typeof networkSchema>;

export function presentNetwork(row: NetworkRow): Network {
  return { id: row.id, name: row.name, mode: row.mode, max_key_lifetime_days: row.maxKeyLifetimeDays, ...versionedOf(row) };
}
