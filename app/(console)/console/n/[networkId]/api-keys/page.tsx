import { PlaceholderPage } from '../../../../_components/placeholder-page';

export const metadata = { title: 'API keys' };

export default function Page() {
  return <PlaceholderPage title="API keys" description="Every key with access to this network: mint, rotate and revoke." />;
}
