import { ReviewQueue } from './_components/review-queue';

export const metadata = { title: 'Review queue' };

export default function Page() {
  return <ReviewQueue />;
}
