import { router } from '@/server/trpc';
import { acceptOfferRoute } from './accept-offer';
import { createFlightOffersRoute } from './create-flight-offers';
import { createOfferRoute } from './create-offer';
import { getOfferRoute } from './get-offer';
import { listOffersRoute } from './list-offers';
import { rejectOfferRoute } from './reject-offer';

export const offersRouter = router({
  list: listOffersRoute,
  create: createOfferRoute,
  createOnFlight: createFlightOffersRoute,
  get: getOfferRoute,
  accept: acceptOfferRoute,
  reject: rejectOfferRoute,
});
