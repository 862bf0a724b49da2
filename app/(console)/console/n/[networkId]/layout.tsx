'use client';

import { IntentLink } from '@/app/(console)/_components/ui/intent-link';
import { Suspense, type ReactNode } from 'react';
import { ConsoleShell } from '@/app/(console)/_components/shell/console-shell';
import { RequireSession } from '@/app/(console)/_components/shell/require-session';
import { buttonVariants } from '@/app/(console)/_components/ui/button';
import { Card } from '@/app/(console)/_components/ui/card';
import { EmptyState } from '@/app/(console)/_components/ui/states';
import { useMe, useNetworkId, useNetworkRole } from '@/app/(console)/_lib/network';

/**
 * Every page of a network: signed in, inside the shell. Pages read the network with useNetworkId(),
 * and may read the URL's query (`useSearchParams`: filters, an open object) — the boundary around
 * them is what lets such a page build (Next renders it in the browser only).
 */
export default function NetworkLayout({ children }: { children: ReactNode }) {
  const networkId = useNetworkId();
  return (
    <RequireSession>
      <ConsoleShell networkId={networkId}>
        <NetworkAccess networkId={networkId}>
          <Suspense>{children}</Suspense>
        </NetworkAccess>
      </ConsoleShell>
    </RequireSession>
  );
}

/** A key without a scope on this network sees a sentence, not a page of 403s. */
function NetworkAccess({ networkId, children }: { networkId: string; children: ReactNode }) {
  const me = useMe();
  const role = useNetworkRole(networkId);
  if (me.data && !role) {
    return (
      <Card>
        <EmptyState
          title="No access to this network"
          description="This API key has no role on this network. Pick another network in the switcher, or ask an administrator to invite you."
          action={
            <IntentLink href="/console" className={buttonVariants({ variant: 'secondary', size: 'sm' })}>
              Go to my networks
            </IntentLink>
          }
        />
      </Card>
    );
  }
  return <>{children}</>;
}
