import { router } from '../../trpc';
import { createWebhook } from './create-webhook';
import { deleteWebhook } from './delete-webhook';
import { deliveryStats } from './delivery-stats';
import { getDelivery, listDeliveries, recoverDeliveries, redeliverDelivery } from './deliveries';
import { getWebhook } from './get-webhook';
import { listWebhooks } from './list-webhooks';
import { rotateSecret } from './rotate-secret';
import { updateWebhook } from './update-webhook';

export const webhooksRouter = router({
  list: listWebhooks,
  create: createWebhook,
  get: getWebhook,
  update: updateWebhook,
  remove: deleteWebhook,
  listDeliveries,
  getDelivery,
  redeliver: redeliverDelivery,
  recover: recoverDeliveries,
  rotateSecret,
  deliveryStats,
});
