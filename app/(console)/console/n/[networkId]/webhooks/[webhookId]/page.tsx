import { WebhookDetail } from '../_components/webhook-detail';

export const metadata = { title: 'Webhook' };

export default function Page() {
  return <WebhookDetail />;
}
