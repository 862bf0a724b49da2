'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import { ArrowLeft, Mail } from 'lucide-react';
import { useMemo } from 'react';
import { dateTimeColumn, ListPage, ListTextFilter } from '@/app/(console)/_components/list-page';
import { BrandName } from '@/app/(console)/_components/shell/console-shell';
import { StatusBadge } from '@/app/(console)/_components/ui/badge';
import { Card } from '@/app/(console)/_components/ui/card';
import type { DataTableColumn } from '@/app/(console)/_components/ui/data-table';
import { IntentLink } from '@/app/(console)/_components/ui/intent-link';
import { EmptyState } from '@/app/(console)/_components/ui/states';
import { useMe } from '@/app/(console)/_lib/network';
import { useOpenObject } from '@/app/(console)/_lib/open-object';
import { byCursor, pagedList } from '@/app/(console)/_lib/paged-list';
import { useTRPC, type RouterOutputs } from '@/app/(console)/_lib/trpc';
import { useListFilters } from '@/app/(console)/_lib/url-filters';
import { EmailSheet } from './email-sheet';

type Email = RouterOutputs['emails']['list']['items'][number];

/** The operator's outbox, newest first: with no SMTP_URL (test mode) it is the development mailbox. */
export function OutboxPage() {
  const me = useMe();
  return (
    <div className="min-h-dvh">
      <header className="flex h-14 items-center gap-4 border-b border-slate-200 bg-white px-4 sm:px-6">
        <BrandName />
        <IntentLink href="/console" className="ml-auto flex items-center gap-1.5 text-sm text-slate-700 underline-offset-4 hover:underline">
          <ArrowLeft className="size-4" aria-hidden /> Back to the console
        </IntentLink>
      </header>
      <main id="main" className="mx-auto max-w-6xl px-4 py-6 sm:px-6">
        {me.data && !me.data.super_user ? (
          <Card>
            <EmptyState title="The outbox is for operators" description="Reading the service's outgoing mail needs a super_user API key." />
          </Card>
        ) : (
          <Outbox />
        )}
      </main>
    </div>
  );
}

function Outbox() {
  const trpc = useTRPC();
  const filters = useListFilters({ to: 'id' });
  const opened = useOpenObject('email');
  const list = pagedList(
    useInfiniteQuery({
      ...trpc.emails.list.infiniteQueryOptions({ limit: 50, to: filters.values.to }, byCursor),
      // While an email is being sent, its row follows it (queued → sent or failed).
      refetchInterval: (query) => (query.state.data?.pages.some((page) => page.items.some((email) => email.status === 'queued')) ? 2_000 : false),
    }),
  );
  const columns = useMemo<DataTableColumn<Email>[]>(
    () => [
      { accessorKey: 'to', header: 'To', cell: ({ row }) => <span className="break-all text-slate-900">{row.original.to}</span> },
      { accessorKey: 'subject', header: 'Subject', enableSorting: false },
      {
        accessorKey: 'status',
        header: 'Status',
        cell: ({ row }) => (
          <span className="flex flex-wrap items-center gap-1.5">
            <StatusBadge status={row.original.status} />
            {row.original.sent_via === 'mailbox' && <span className="text-xs text-slate-600">mailbox</span>}
          </span>
        ),
      },
      dateTimeColumn('created_at', 'Queued'),
    ],
    [],
  );
  return (
    <>
      <ListPage
        title="Outbox"
        description="Every email the service sent or is sending. Without SMTP_URL (test mode) mail stays here, in the development mailbox: open one to read it and follow its link."
        filters={filters}
        toolbar={<ListTextFilter filters={filters} name="to" label="To" placeholder="name@example.com" />}
        list={list}
        columns={columns}
        onRowClick={(email) => opened.open(email.id)}
        selectedRowId={opened.id ?? undefined}
        empty={{
          icon: <Mail className="size-6" />,
          title: 'No email yet',
          description: 'Invitations are emailed; each appears here as it is queued.',
        }}
      />
      <EmailSheet emailId={opened.id} onClose={opened.close} />
    </>
  );
}
