import { PlaceholderPage } from '../../../../_components/placeholder-page';

export const metadata = { title: 'Service accounts' };

export default function Page() {
  return <PlaceholderPage title="Service accounts" description="Non-human identities for integrations, and their keys." />;
}
