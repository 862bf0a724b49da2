import { z } from 'zod';
import { listParams } from '@/server/http/page';
import { maxCharacters, networkParam } from '@/server/routers/shared.types';
import { KEY_STATUSES } from '@/domain/statuses';

export const listNetworkKeysInput = z.strictObject({
  ...networkParam,
  ...listParams,
  owner_id: z
    .string()
    .min(1)
    .check(maxCharacters(100, 'owner_id must be at most 100 characters.'))
    .meta({ description: 'Only the keys of this person (usr_…) or service account (sa_…): their `owner.id`.' })
    .optional(),
  status: z.enum(KEY_STATUSES).meta({ description: 'Only keys in this state now.' }).optional(),
});
