import { z } from 'zod';
import { listParams, pageOf } from '@/server/http/page';
import { maxCharacters } from '@/server/routers/shared.types';
import { networkSchema } from './network.types';

export const listNetworksInput = z.strictObject({
  ...listParams,
  q: z
    .string()
    .trim()
    .min(1, 'q must not be empty: leave it out to list every network.')
    .check(maxCharacters(100, 'q must be at most 100 characters.'))
    .meta({ description: 'Only the networks whose name contains this text (any case), or whose id it is.' })
    .optional(),
});
export const listNetworksOutput = pageOf(networkSchema).meta({ id: 'NetworkList' });
