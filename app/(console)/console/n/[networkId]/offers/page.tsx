import { PlaceholderPage } from '../../../../_components/placeholder-page';

export const metadata = { title: 'Offers' };

export default function Page() {
  return <PlaceholderPage title="Offers" description="Campaigns offered to podcasts: accept or reject." />;
}
