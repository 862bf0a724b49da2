import { router } from '../../trpc';
import { createOffer } from './create-offer';
import { acceptOffer, rejectOffer } from './decide-offer';
import { getOffer } from './get-offer';
import { listOffers } from './list-offers';

export const offersRouter = router({
  list: listOffers,
  create: createOffer,
  get: getOffer,
  accept: acceptOffer,
  reject: rejectOffer,
});
