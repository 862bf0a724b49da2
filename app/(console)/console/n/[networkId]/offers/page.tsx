import { OffersPage } from './_components/offers-page';

export const metadata = { title: 'Offers' };

export default function Page() {
  return <OffersPage />;
}
