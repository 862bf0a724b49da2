import { PlaceholderPage } from '../../../_components/placeholder-page';

export const metadata = { title: 'Overview' };

export default function Page() {
  return <PlaceholderPage title="Overview" description="Counts, recent events and webhook delivery health for this network." />;
}
