'use client';

import { usePathname, useRouter } from 'next/navigation';
import { useDeferredValue, useEffect, type ReactNode } from 'react';
import { SIGN_IN_PATH } from '@/app/(console)/_lib/providers';
import { useApiKey, wasSignedOutByUser } from '@/app/(console)/_lib/session';
import { LoadingBlock } from '@/app/(console)/_components/ui/skeleton';

/** Renders children only with a key in sessionStorage; otherwise goes to sign-in (and back here after). */
export function RequireSession({ children }: { children: ReactNode }) {
  const apiKey = useApiKey();
  // The key is known only after hydration, in one synchronous update (useSyncExternalStore): the
  // shell and the page would then render in one long task. Showing them through the deferred value
  // renders them as a transition instead, which React splits into short tasks, so the tab answers
  // input meanwhile (Lighthouse's total blocking time; docs/PERFORMANCE.md). Signing out hides at once.
  const shownKey = useDeferredValue(apiKey);
  const router = useRouter();
  const pathname = usePathname();
  useEffect(() => {
    if (apiKey === null) router.replace(wasSignedOutByUser() ? SIGN_IN_PATH : `${SIGN_IN_PATH}?next=${encodeURIComponent(pathname)}`);
  }, [apiKey, pathname, router]);
  if (!apiKey || !shownKey) {
    return (
      <div className="mx-auto max-w-md p-10">
        <LoadingBlock label="Checking your session…" />
      </div>
    );
  }
  return <>{children}</>;
}
