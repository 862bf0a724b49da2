import { WebhooksPage } from './_components/webhooks-page';

export const metadata = { title: 'Webhooks' };

export default function Page() {
  return <WebhooksPage />;
}
