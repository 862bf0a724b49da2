import { z } from 'zod';
import { maxCharacters, networkParam } from '@/server/routers/shared.types';
import { offerIdParam } from './offer.types';

export const rejectOfferInput = z.strictObject({
  ...networkParam,
  ...offerIdParam,
  reason: z.string().trim().check(maxCharacters(500, 'reason must be at most 500 characters.')).optional(),
});
