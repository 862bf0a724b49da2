import { FlightDelivery } from '@/app/(console)/console/n/[networkId]/campaigns/_components/flight-delivery';

export const metadata = { title: 'Flight delivery' };

export default function Page() {
  return <FlightDelivery />;
}
