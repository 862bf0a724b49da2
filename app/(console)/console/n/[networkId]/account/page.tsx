import { AccountView } from './_components/account-view';

export const metadata = { title: 'Your account' };

export default function Page() {
  return <AccountView />;
}
