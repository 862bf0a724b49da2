'use client';

import { usePathname, useRouter } from 'next/navigation';
import { useEffect, type ReactNode } from 'react';
import { SIGN_IN_PATH } from '@/app/(console)/_lib/providers';
import { useApiKey, wasSignedOutByUser } from '@/app/(console)/_lib/session';
import { LoadingBlock } from '@/app/(console)/_components/ui/skeleton';

/** Renders children only with a key in sessionStorage; otherwise goes to sign-in (and back here after). */
export function RequireSession({ children }: { children: ReactNode }) {
  const apiKey = useApiKey();
  const router = useRouter();
  const pathname = usePathname();
  useEffect(() => {
    if (apiKey === null) router.replace(wasSignedOutByUser() ? SIGN_IN_PATH : `${SIGN_IN_PATH}?next=${encodeURIComponent(pathname)}`);
  }, [apiKey, pathname, router]);
  if (!apiKey) {
    return (
      <div className="mx-auto max-w-md p-10">
        <LoadingBlock label="Checking your session…" />
      </div>
    );
  }
  return <>{children}</>;
}
