import { EventsPage } from './_components/events-page';

export const metadata = { title: 'Events' };

export default function Page() {
  return <EventsPage />;
}
