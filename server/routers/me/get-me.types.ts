import { z } from 'zod';
import { idField, roleSchema } from '@/server/routers/shared.types';

export const getMeInput = z.void();

export const scopeSchema = z
  .object({ network_id: z.string(), role: roleSchema })
  .meta({ id: 'Scope' });

export const meSchema = z
  .object({
    key_id: idField('key'),
    key_name: z.string(),
    super_user: z.boolean(),
    scopes: z.array(scopeSchema).meta({ description: 'Effective roles: a person’s key never exceeds their current membership.' }),
  })
  .meta({ id: 'Me' });
