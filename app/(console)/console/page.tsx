'use client';

import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { BRAND_ICON as Brand } from '@/app/(console)/_components/shell/nav-items';
import { CreateNetworkDialog } from '@/app/(console)/_components/shell/create-network-dialog';
import { RequireSession } from '@/app/(console)/_components/shell/require-session';
import { Button } from '@/app/(console)/_components/ui/button';
import { Card } from '@/app/(console)/_components/ui/card';
import { LoadingBlock } from '@/app/(console)/_components/ui/skeleton';
import { EmptyState, ErrorState } from '@/app/(console)/_components/ui/states';
import { networkPath, useMe, useNetworks } from '@/app/(console)/_lib/network';
import { SIGN_IN_PATH } from '@/app/(console)/_lib/providers';
import { signOutNow } from '@/app/(console)/_lib/sign-out';

/** /console: open the first network of the key, or explain that there is none. */
export default function ConsoleHome() {
  return (
    <RequireSession>
      <FirstNetwork />
    </RequireSession>
  );
}

function FirstNetwork() {
  const router = useRouter();
  const networks = useNetworks();
  const me = useMe();
  const first = networks.data?.items[0];
  useEffect(() => {
    if (first) router.replace(networkPath(first.id));
  }, [first, router]);

  return (
    <main id="main" className="mx-auto max-w-lg px-4 py-16">
      <div className="mb-6 flex items-center gap-2">
        <Brand className="size-6 text-indigo-600" aria-hidden />
        <h1 className="text-lg font-semibold">Ad Network Console</h1>
      </div>
      {networks.isError ? (
        <ErrorState error={networks.error} onRetry={() => networks.refetch()} />
      ) : networks.isPending || first ? (
        <LoadingBlock label="Opening your network…" />
      ) : (
        <Card>
          <EmptyState
            title="No networks yet"
            description={
              me.data?.super_user
                ? 'Create the first network to start inviting members and running campaigns, or a sandbox with sample data to try the console on.'
                : 'This key has no access to any network. Ask an administrator to invite you.'
            }
            action={
              <div className="flex flex-wrap justify-center gap-2">
                {me.data?.super_user && (
                  <>
                    <CreateNetworkDialog />
                    <CreateNetworkDialog sandbox wide />
                  </>
                )}
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={async () => {
                    await signOutNow({ session: me.data?.session ?? false });
                    router.replace(SIGN_IN_PATH);
                  }}
                >
                  Sign out
                </Button>
              </div>
            }
          />
        </Card>
      )}
    </main>
  );
}
