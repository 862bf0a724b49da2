import { router } from '@/server/trpc';
import { createWebhookRoute } from './create-webhook';
import { deleteWebhookRoute } from './delete-webhook';
import { deliveryStatsRoute } from './delivery-stats';
import { getDeliveryRoute } from './get-delivery';
import { getWebhookRoute } from './get-webhook';
import { listDeliveriesRoute } from './list-deliveries';
import { listWebhooksRoute } from './list-webhooks';
import { recoverDeliveriesRoute } from './recover-deliveries';
import { redeliverDeliveryRoute } from './redeliver-delivery';
import { rotateSecretRoute } from './rotate-secret';
import { sendTestEventRoute } from './send-test-event';
import { updateWebhookRoute } from './update-webhook';

export const webhooksRouter = router({
  list: listWebhooksRoute,
  create: createWebhookRoute,
  get: getWebhookRoute,
  update: updateWebhookRoute,
  remove: deleteWebhookRoute,
  listDeliveries: listDeliveriesRoute,
  getDelivery: getDeliveryRoute,
  redeliver: redeliverDeliveryRoute,
  recover: recoverDeliveriesRoute,
  rotateSecret: rotateSecretRoute,
  deliveryStats: deliveryStatsRoute,
  sendTest: sendTestEventRoute,
});
