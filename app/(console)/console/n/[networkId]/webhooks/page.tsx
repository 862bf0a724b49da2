import { PlaceholderPage } from '../../../../_components/placeholder-page';

export const metadata = { title: 'Webhooks' };

export default function Page() {
  return <PlaceholderPage title="Webhooks" description="Subscriptions that receive signed events, and their delivery logs." />;
}
