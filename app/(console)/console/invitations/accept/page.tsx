import { Suspense } from 'react';
import { AcceptInvitation } from './accept-invitation';

export const metadata = { title: 'Accept invitation' };

/** /console/invitations/accept#token=inv_… (or ?token=…): join a network and get your first API key, once. */
export default function AcceptInvitationPage() {
  return (
    <main id="main" className="flex min-h-dvh items-center justify-center px-4 py-10">
      <Suspense>
        <AcceptInvitation />
      </Suspense>
    </main>
  );
}
