import { Suspense } from 'react';
import { RequireSession } from '@/app/(console)/_components/shell/require-session';
import { OutboxPage } from './_components/outbox-page';

export const metadata = { title: 'Outbox' };

/** /console/outbox[?email=eml_…]: every email the service sent or is sending (super_user keys). */
export default function Page() {
  return (
    <RequireSession>
      <Suspense>
        <OutboxPage />
      </Suspense>
    </RequireSession>
  );
}
