import { ServiceAccountsView } from './_components/service-accounts-view';

export const metadata = { title: 'Service accounts' };

export default function Page() {
  return <ServiceAccountsView />;
}
