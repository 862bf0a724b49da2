import { MembersView } from './_components/members-view';

export const metadata = { title: 'Members' };

export default function Page() {
  return <MembersView />;
}
