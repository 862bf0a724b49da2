'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Fingerprint, Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card, CardContent } from '@/app/(console)/_components/ui/card';
import { DangerAction } from '@/app/(console)/_components/ui/confirm-dialog';
import { ACTIONS_COLUMN_ID, DataTable, type DataTableColumn } from '@/app/(console)/_components/ui/data-table';
import { DateTime } from '@/app/(console)/_components/ui/date-time';
import { LoadingBlock } from '@/app/(console)/_components/ui/skeleton';
import { EmptyState, ErrorState, PageHeader } from '@/app/(console)/_components/ui/states';
import { toast } from '@/app/(console)/_components/ui/toaster';
import { useMe } from '@/app/(console)/_lib/network';
import { problemSentence } from '@/app/(console)/_lib/problem';
import { useTRPC, type RouterOutputs } from '@/app/(console)/_lib/trpc';
import { AddPasskeyDialog } from './add-passkey-dialog';
import { NotificationSettings } from './notification-settings';

type Me = RouterOutputs['me']['get'];
type Passkey = RouterOutputs['passkeys']['list']['items'][number];

/** A person has at most this many passkeys (the API refuses one more). */
const MAX_PASSKEYS = 20;

/**
 * /console/n/[networkId]/account: who the tab is signed in as, and — from a console session — the
 * person's passkeys (`GET /v1/me/passkeys`), to add (`POST /v1/me/passkeys/options`, the browser's
 * prompt, `POST /v1/me/passkeys`) and remove. A pasted API key may not manage passkeys (the API
 * answers 403): the page says how to get a session instead of offering a button that would fail.
 * Below them, the notification emails the person gets (notification-settings.tsx).
 */
export function AccountView() {
  const me = useMe();
  return (
    <>
      <PageHeader title="Your account" description="Who this browser tab is signed in as, the passkeys that sign you in, and the emails you get." />
      {me.error ? (
        <ErrorState error={me.error} onRetry={() => me.refetch()} />
      ) : !me.data ? (
        <LoadingBlock label="Loading your account…" />
      ) : (
        <>
          <SignedIn me={me.data} />
          <section aria-labelledby="passkeys-heading" className="mt-8">
            {me.data.session ? (
              <Passkeys />
            ) : (
              <>
                <PasskeysHeading />
                <Card>
                  <EmptyState
                    icon={<Fingerprint className="size-6" />}
                    title={me.data.owner.type === 'person' ? 'Passkeys are added from a session' : 'Passkeys are for people'}
                    description={
                      me.data.owner.type === 'person'
                        ? 'This tab is signed in with an API key, which may not add or remove passkeys. Sign out, then sign in with a link emailed to you (or with a passkey you already have): from that session you can add passkeys here.'
                        : 'This tab is signed in with a service account’s key. People add passkeys to their own account, from a session signed in with an emailed link.'
                    }
                  />
                </Card>
              </>
            )}
          </section>
          <NotificationSettings person={me.data.owner.type === 'person'} />
        </>
      )}
    </>
  );
}

/** What `me` says of the tab's credential, in a sentence. */
function credentialOf(me: Me) {
  if (me.session)
    return (
      <>
        A session, until <DateTime value={me.expires_at} />
      </>
    );
  return `${me.owner.type === 'service_account' ? 'The service account’s API key' : 'An API key'} “${me.key_name}”`;
}

function SignedIn({ me }: { me: Me }) {
  return (
    <Card aria-label="Signed in as">
      <CardContent>
        {/* A pair per line beside each other from sm up; on a phone each value right under its label. */}
        <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[max-content_1fr]">
          <div className="space-y-0.5 sm:contents">
            <dt className="font-medium text-slate-600">Signed in as</dt>
            <dd className="min-w-0 font-medium break-words text-slate-900">{me.owner.name}</dd>
          </div>
          <div className="space-y-0.5 sm:contents">
            <dt className="font-medium text-slate-600">With</dt>
            <dd className="min-w-0 break-words text-slate-900">{credentialOf(me)}</dd>
          </div>
        </dl>
      </CardContent>
    </Card>
  );
}

function PasskeysHeading({ action }: { action?: ReactNode }) {
  return (
    <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
      <div>
        <h2 id="passkeys-heading" className="text-lg font-semibold text-slate-900">
          Passkeys
        </h2>
        <p className="mt-1 max-w-prose text-sm text-slate-600">
          A passkey signs you in with your device’s screen lock or a security key, without waiting for an email. It works at this console’s address
          only.
        </p>
      </div>
      {action && <div className="flex shrink-0 flex-wrap gap-2">{action}</div>}
    </div>
  );
}

function Passkeys() {
  const trpc = useTRPC();
  const list = useQuery(trpc.passkeys.list.queryOptions());
  const items = list.data?.items;
  const full = (items?.length ?? 0) >= MAX_PASSKEYS;

  const columns: DataTableColumn<Passkey>[] = [
    {
      id: 'name',
      header: 'Name',
      accessorKey: 'name',
      cell: ({ row }) => <span className="font-medium break-words text-slate-900">{row.original.name}</span>,
    },
    { id: 'created', header: 'Added', accessorKey: 'created_at', cell: ({ row }) => <DateTime value={row.original.created_at} /> },
    {
      id: 'last_used',
      header: 'Last used',
      accessorKey: 'last_used_at',
      cell: ({ row }) => <DateTime value={row.original.last_used_at} unset="Never" />,
    },
    {
      id: ACTIONS_COLUMN_ID,
      header: () => <span className="sr-only">Actions</span>,
      enableSorting: false,
      cell: ({ row }) => <RemovePasskey passkey={row.original} />,
    },
  ];

  return (
    <>
      <PasskeysHeading
        action={
          <AddPasskeyDialog
            disabledReason={full ? `You have ${MAX_PASSKEYS} passkeys, the most one person may have: remove one to add another.` : undefined}
          />
        }
      />
      <DataTable
        label="Passkeys"
        columns={columns}
        rows={items}
        error={list.error}
        onRetry={() => list.refetch()}
        empty={
          <EmptyState
            icon={<Fingerprint className="size-6" />}
            title="No passkeys yet"
            description="Add one, and next time sign in with this device instead of an emailed link."
          />
        }
      />
    </>
  );
}

function RemovePasskey({ passkey }: { passkey: Passkey }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const remove = useMutation(
    trpc.passkeys.remove.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.passkeys.pathKey() }) }),
  );
  return (
    <div className="flex justify-end">
      <DangerAction
        label="Remove"
        icon={<Trash2 aria-hidden />}
        ariaLabel={`Remove ${passkey.name}`}
        title={`Remove “${passkey.name}”?`}
        description="It no longer signs you in; sessions it started keep working until they end. Your device still holds it: delete it in your device’s or password manager’s settings as well if you no longer want it there."
        confirmLabel="Remove passkey"
        action={async () => {
          await remove.mutateAsync({ passkeyId: passkey.id });
          toast.success(`Passkey “${passkey.name}” removed.`);
        }}
        failure={(e) => problemSentence(e, 'remove the passkey')}
      />
    </div>
  );
}
