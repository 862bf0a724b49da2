import { ApiKeysView } from './_components/api-keys-view';

export const metadata = { title: 'API keys' };

export default function Page() {
  return <ApiKeysView />;
}
