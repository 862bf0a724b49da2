import { z } from 'zod';
import { MODES } from '@/domain/modes';
import { idField, roleSchema, timestamp } from '@/server/routers/shared.types';

export const getMeInput = z.void();

export const scopeSchema = z.object({ network_id: z.string(), role: roleSchema }).meta({ id: 'Scope' });

export const meSchema = z
  .object({
    key_id: idField('key'),
    key_name: z.string(),
    super_user: z.boolean(),
    session: z.boolean().meta({ description: 'A console session’s key (from signing in): `POST /sign-out` ends it.' }),
    mode: z.enum(MODES).meta({
      description:
        'test (sk_test_) or live (sk_live_): the key acts on networks of this mode only, but for a live super_user key and a live console session, which reach both (docs: Test and live).',
    }),
    expires_at: timestamp.nullable().meta({ description: 'When the key stops working; null for a key that does not expire.' }),
    scopes: z.array(scopeSchema).meta({ description: 'Effective roles: a person’s key never exceeds their current membership.' }),
    owner: z
      .object({
        type: z.enum(['person', 'service_account']),
        id: z.string(),
        name: z.string().meta({ description: 'The person’s or service account’s name (what the console shows as who is signed in).' }),
      })
      .meta({ description: 'Who the key belongs to.' }),
  })
  .meta({ id: 'Me' });
