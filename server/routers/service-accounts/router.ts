import { router } from '../../trpc';
import { createServiceAccount } from './create-service-account';
import { createServiceAccountKey } from './create-service-account-key';
import { deleteServiceAccount } from './delete-service-account';
import { getServiceAccount } from './get-service-account';
import { listServiceAccounts } from './list-service-accounts';

export const serviceAccountsRouter = router({
  list: listServiceAccounts,
  create: createServiceAccount,
  get: getServiceAccount,
  delete: deleteServiceAccount,
  createKey: createServiceAccountKey,
});
