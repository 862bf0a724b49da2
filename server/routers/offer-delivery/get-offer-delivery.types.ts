import { z } from 'zod';
import { networkParam } from '@/server/routers/shared.types';
import { offerIdParam } from '@/server/routers/offers/offer.types';
import { dayField } from './offer-delivery.types';

/** The most days one read covers. */
export const MAX_DELIVERY_DAYS = 400;

export const getOfferDeliveryInput = z
  .strictObject({
    ...networkParam,
    ...offerIdParam,
    from: dayField.optional().meta({ description: 'The first UTC day; default: the day the offer was accepted (or made).' }),
    to: dayField.optional().meta({ description: 'The last UTC day; default: today (UTC).' }),
  })
  .refine((v) => !v.from || !v.to || v.from <= v.to, { message: 'from must not be after to.', path: ['from'] });
