import { PlaceholderPage } from '../../../../_components/placeholder-page';

export const metadata = { title: 'Members' };

export default function Page() {
  return <PlaceholderPage title="Members" description="People in this network, their roles, and pending invitations." />;
}
