import { router } from '@/server/trpc';
import { createOwnKeyRoute } from './create-own-key';
import { getNetworkKeyRoute } from './get-network-key';
import { getOwnKeyRoute } from './get-own-key';
import { listNetworkKeysRoute } from './list-network-keys';
import { listOwnKeysRoute } from './list-own-keys';
import { revokeNetworkKeyRoute } from './revoke-network-key';
import { revokeOwnKeyRoute } from './revoke-own-key';
import { rotateNetworkKeyRoute } from './rotate-network-key';
import { rotateOwnKeyRoute } from './rotate-own-key';

export const keysRouter = router({
  list: listOwnKeysRoute,
  create: createOwnKeyRoute,
  get: getOwnKeyRoute,
  revoke: revokeOwnKeyRoute,
  rotate: rotateOwnKeyRoute,
  listForNetwork: listNetworkKeysRoute,
  getForNetwork: getNetworkKeyRoute,
  revokeForNetwork: revokeNetworkKeyRoute,
  rotateForNetwork: rotateNetworkKeyRoute,
});
