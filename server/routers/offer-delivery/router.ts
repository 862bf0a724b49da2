import { router } from '@/server/trpc';
import { getOfferDeliveryRoute } from './get-offer-delivery';
import { reportDeliveryRoute } from './report-delivery';

export const offerDeliveryRouter = router({
  report: reportDeliveryRoute,
  get: getOfferDeliveryRoute,
});
