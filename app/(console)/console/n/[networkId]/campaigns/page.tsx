import { PlaceholderPage } from '../../../../_components/placeholder-page';

export const metadata = { title: 'Campaigns' };

export default function Page() {
  return <PlaceholderPage title="Campaigns" description="Scripts, budgets and schedules of advertisers’ campaigns." />;
}
