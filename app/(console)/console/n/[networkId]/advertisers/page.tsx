import { AdvertisersPage } from './_components/advertisers-page';

export const metadata = { title: 'Advertisers' };

export default function Page() {
  return <AdvertisersPage />;
}
