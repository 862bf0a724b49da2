import { router } from '@/server/trpc';
import { createNetworkRoute } from './create-network';
import { getNetworkRoute } from './get-network';
import { listNetworksRoute } from './list-networks';
import { networkOverviewRoute } from './network-overview';
import { updateNetworkRoute } from './update-network';

export const networksRouter = router({
  list: listNetworksRoute,
  create: createNetworkRoute,
  get: getNetworkRoute,
  update: updateNetworkRoute,
  overview: networkOverviewRoute,
});
