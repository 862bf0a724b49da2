import { PlaceholderPage } from '../../../../_components/placeholder-page';

export const metadata = { title: 'Advertisers' };

export default function Page() {
  return <PlaceholderPage title="Advertisers" description="The brands that run campaigns in this network." />;
}
