import { CampaignsPage } from './_components/campaigns-page';

export const metadata = { title: 'Campaigns' };

export default function Page() {
  return <CampaignsPage />;
}
