import { PodcastsPage } from './_components/podcasts-page';

export const metadata = { title: 'Podcasts' };

export default function Page() {
  return <PodcastsPage />;
}
