import { PlaceholderPage } from '../../../../_components/placeholder-page';

export const metadata = { title: 'Creatives' };

export default function Page() {
  return <PlaceholderPage title="Creatives" description="Host-voiced ads generated from accepted offers." />;
}
