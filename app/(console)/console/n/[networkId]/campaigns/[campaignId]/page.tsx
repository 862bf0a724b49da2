import { CampaignDetail } from '@/app/(console)/console/n/[networkId]/campaigns/_components/campaign-detail';

export const metadata = { title: 'Campaign' };

export default function Page() {
  return <CampaignDetail />;
}
