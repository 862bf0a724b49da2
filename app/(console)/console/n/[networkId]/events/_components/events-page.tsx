'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import { Activity } from 'lucide-react';
import { useMemo } from 'react';
import { EVENT_TYPE_NAMES, EVENT_TYPES } from '@/domain/events';
import { dateTimeColumn, ListDateRange, ListFilter, ListPage, ListTextFilter } from '@/app/(console)/_components/list-page';
import type { DataTableColumn } from '@/app/(console)/_components/ui/data-table';
import { IntentLink } from '@/app/(console)/_components/ui/intent-link';
import { namesById, useCampaigns, usePodcasts } from '@/app/(console)/_lib/ads';
import { describeEvent } from '@/app/(console)/_lib/event-summary';
import { networkPath, useNetworkId } from '@/app/(console)/_lib/network';
import { useOpenObject } from '@/app/(console)/_lib/open-object';
import { byCursor, pagedList } from '@/app/(console)/_lib/paged-list';
import { useTRPC } from '@/app/(console)/_lib/trpc';
import { dayRange, useListFilters } from '@/app/(console)/_lib/url-filters';
import { EventSheet, type Event } from './event-sheet';

/** The network's event log, newest first: what webhooks deliver, filtered by type, object and day. */
export function EventsPage() {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const filters = useListFilters({ type: EVENT_TYPE_NAMES, object: 'id', from: 'date', to: 'date' });
  const { type, object, from, to } = filters.values;
  const opened = useOpenObject('event');
  const campaigns = useCampaigns(networkId);
  const podcasts = usePodcasts(networkId);
  const names = useMemo(
    () => ({ campaigns: namesById(campaigns.data?.items), podcasts: namesById(podcasts.data?.items) }),
    [campaigns.data, podcasts.data],
  );
  const list = pagedList(
    useInfiniteQuery(
      trpc.events.list.infiniteQueryOptions({ networkId, limit: 50, order: 'desc', type, object_id: object, ...dayRange(from, to) }, byCursor),
    ),
  );

  const columns = useMemo<DataTableColumn<Event>[]>(
    () => [
      {
        accessorKey: 'type',
        header: 'Type',
        cell: ({ row }) => <span className="font-mono text-xs font-medium whitespace-nowrap text-slate-900">{row.original.type}</span>,
      },
      {
        id: 'summary',
        header: 'What happened',
        enableSorting: false,
        cell: ({ row }) => {
          const summary = describeEvent(row.original.type, row.original.data, names);
          return summary.section ? (
            <IntentLink href={networkPath(networkId, summary.section)} className="text-indigo-700 underline-offset-4 hover:underline">
              {summary.text}
            </IntentLink>
          ) : (
            <span className="text-slate-700">{summary.text}</span>
          );
        },
      },
      dateTimeColumn('occurred_at', 'Occurred'),
    ],
    [names, networkId],
  );

  return (
    <>
      <ListPage
        title="Events"
        exportCsv={{ path: `/networks/${networkId}/events`, params: { order: 'desc', type, object_id: object, ...dayRange(from, to) } }}
        description="Everything that happened in this network, newest first: the events webhooks deliver, kept so you can reconcile. Open one to see its data."
        filters={filters}
        toolbar={
          <>
            <ListFilter
              filters={filters}
              name="type"
              label="Type"
              placeholder="All types"
              options={EVENT_TYPE_NAMES.map((name) => ({ value: name, label: name }))}
              wide
            />
            <ListTextFilter filters={filters} name="object" label="Object id" placeholder="off_…, crv_…, pod_…" />
            <ListDateRange filters={filters} label="Occurred" />
          </>
        }
        list={list}
        columns={columns}
        onRowClick={(event) => opened.open(event.id)}
        selectedRowId={opened.id ?? undefined}
        empty={{
          icon: <Activity className="size-6" />,
          title: 'No events yet',
          description: `Events are recorded when ${Object.values(EVENT_TYPES)
            .map((d) => d.replace(/\.$/, '').toLowerCase())
            .slice(0, 3)
            .join('; ')}, and more.`,
        }}
      />
      <EventSheet eventId={opened.id} onClose={opened.close} names={names} />
    </>
  );
}
