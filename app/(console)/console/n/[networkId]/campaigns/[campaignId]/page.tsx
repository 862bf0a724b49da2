import { CampaignDetail } from '../_components/campaign-detail';

export const metadata = { title: 'Campaign' };

export default function Page() {
  return <CampaignDetail />;
}
