import { router } from '../../trpc';
import { createNetwork } from './create-network';
import { getNetwork } from './get-network';
import { listNetworks } from './list-networks';
import { networkOverview } from './overview';
import { updateNetwork } from './update-network';

export const networksRouter = router({
  list: listNetworks,
  create: createNetwork,
  get: getNetwork,
  update: updateNetwork,
  overview: networkOverview,
});
