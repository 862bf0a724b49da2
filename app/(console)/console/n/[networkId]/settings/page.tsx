import { NetworkSettings } from './_components/network-settings';

export const metadata = { title: 'Settings' };

export default function Page() {
  return <NetworkSettings />;
}
