import { CreativeReview } from './creative-review';

export const metadata = { title: 'Review your ad' };

/** /console/creative-review#token=crl_…: a podcast host listens to an ad made in their voice and approves it or asks for changes. */
export default function CreativeReviewPage() {
  return (
    <main id="main" className="flex min-h-dvh items-start justify-center px-4 py-8 sm:py-10">
      <CreativeReview />
    </main>
  );
}
