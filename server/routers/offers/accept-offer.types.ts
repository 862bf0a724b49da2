import { z } from 'zod';
import { networkParam } from '@/server/routers/shared.types';
import { offerIdParam } from './offer.types';

export const acceptOfferInput = z.strictObject({ ...networkParam, ...offerIdParam });
