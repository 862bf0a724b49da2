import { router } from '../../trpc';
import { createOwnKey } from './create-own-key';
import { getOwnKey } from './get-own-key';
import { listOwnKeys } from './list-own-keys';
import { listNetworkKeys, revokeNetworkKey } from './network-keys';
import { revokeOwnKey } from './revoke-own-key';
import { rotateNetworkKey } from './rotate-network-key';
import { rotateOwnKey } from './rotate-own-key';

export const keysRouter = router({
  list: listOwnKeys,
  create: createOwnKey,
  get: getOwnKey,
  revoke: revokeOwnKey,
  rotate: rotateOwnKey,
  listForNetwork: listNetworkKeys,
  revokeForNetwork: revokeNetworkKey,
  rotateForNetwork: rotateNetworkKey,
});
