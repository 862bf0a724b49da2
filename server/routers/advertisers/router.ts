import { router } from '@/server/trpc';
import { createAdvertiserRoute } from './create-advertiser';
import { deleteAdvertiserRoute } from './delete-advertiser';
import { getAdvertiserRoute } from './get-advertiser';
import { listAdvertisersRoute } from './list-advertisers';
import { updateAdvertiserRoute } from './update-advertiser';

export const advertisersRouter = router({
  list: listAdvertisersRoute,
  create: createAdvertiserRoute,
  get: getAdvertiserRoute,
  update: updateAdvertiserRoute,
  remove: deleteAdvertiserRoute,
});
