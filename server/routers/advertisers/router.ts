import { router } from '../../trpc';
import { createAdvertiser } from './create-advertiser';
import { deleteAdvertiser } from './delete-advertiser';
import { getAdvertiser } from './get-advertiser';
import { listAdvertisers } from './list-advertisers';
import { updateAdvertiser } from './update-advertiser';

export const advertisersRouter = router({
  list: listAdvertisers,
  create: createAdvertiser,
  get: getAdvertiser,
  update: updateAdvertiser,
  remove: deleteAdvertiser,
});
