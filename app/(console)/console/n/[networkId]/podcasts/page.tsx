import { PlaceholderPage } from '../../../../_components/placeholder-page';

export const metadata = { title: 'Podcasts' };

export default function Page() {
  return <PlaceholderPage title="Podcasts" description="Shows in this network, their host voices and opt-in status." />;
}
