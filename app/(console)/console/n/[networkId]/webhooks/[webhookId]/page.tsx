import { WebhookDetail } from '@/app/(console)/console/n/[networkId]/webhooks/_components/webhook-detail';

export const metadata = { title: 'Webhook' };

export default function Page() {
  return <WebhookDetail />;
}
