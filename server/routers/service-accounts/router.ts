import { router } from '@/server/trpc';
import { createServiceAccountRoute } from './create-service-account';
import { createServiceAccountKeyRoute } from './create-service-account-key';
import { deleteServiceAccountRoute } from './delete-service-account';
import { getServiceAccountRoute } from './get-service-account';
import { listServiceAccountsRoute } from './list-service-accounts';

export const serviceAccountsRouter = router({
  list: listServiceAccountsRoute,
  create: createServiceAccountRoute,
  get: getServiceAccountRoute,
  delete: deleteServiceAccountRoute,
  createKey: createServiceAccountKeyRoute,
});
