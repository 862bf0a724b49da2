import { OverviewPage } from './_overview/overview-page';

export const metadata = { title: 'Overview' };

export default function Page() {
  return <OverviewPage />;
}
