import { z } from 'zod';
import { networkParam } from '@/server/routers/shared.types';
import { offerIdParam } from './offer.types';

export const getOfferInput = z.strictObject({ ...networkParam, ...offerIdParam });
