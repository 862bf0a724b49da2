import { Suspense } from 'react';
import { ApiKeysView } from './_components/api-keys-view';

export const metadata = { title: 'API keys' };

export default function Page() {
  return (
    <Suspense>
      <ApiKeysView />
    </Suspense>
  );
}
