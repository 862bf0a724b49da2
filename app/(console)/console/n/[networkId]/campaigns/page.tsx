import { Suspense } from 'react';
import { CampaignsPage } from './_components/campaigns-page';

export const metadata = { title: 'Campaigns' };

export default function Page() {
  return (
    <Suspense>
      <CampaignsPage />
    </Suspense>
  );
}
