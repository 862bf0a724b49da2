'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import { FileAudio, Loader2 } from 'lucide-react';
import { IntentLink } from '@/app/(console)/_components/ui/intent-link';
import { useMemo } from 'react';
import { creativeStatusSchema } from '@/server/routers/creatives/creative.types';
import { dateTimeColumn, ListDateRange, ListFilter, ListPage, referenceColumn } from '@/app/(console)/_components/list-page';
import { StatusBadge } from '@/app/(console)/_components/ui/badge';
import { Button } from '@/app/(console)/_components/ui/button';
import type { DataTableColumn } from '@/app/(console)/_components/ui/data-table';
import { namedOptions, optionsOf } from '@/app/(console)/_components/ui/select';
import { formatDuration, namesById, useCampaigns, usePodcasts } from '@/app/(console)/_lib/ads';
import { networkPath, useCanAdminister, useNetworkId } from '@/app/(console)/_lib/network';
import { byCursor, pagedList } from '@/app/(console)/_lib/paged-list';
import { useTRPC } from '@/app/(console)/_lib/trpc';
import { dayRange, useListFilters } from '@/app/(console)/_lib/url-filters';
import { useOpenObject } from '@/app/(console)/_lib/open-object';
import { CreativeAudio, type Creative } from './creative-audio';
import { CreativeSheet } from './creative-sheet';

/** How often the list is refreshed while a creative is generating (and not at all otherwise). */
const POLL_MS = 1500;

export function CreativesPage() {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const canAdminister = useCanAdminister(networkId);
  const filters = useListFilters({ status: creativeStatusSchema.options, podcast: 'id', offer: 'id', from: 'date', to: 'date' });
  const { status, podcast: podcastId, offer: offerId, from, to } = filters.values;
  const made = dayRange(from, to);

  const campaigns = useCampaigns(networkId);
  const podcasts = usePodcasts(networkId);
  const campaignNames = useMemo(() => namesById(campaigns.data?.items), [campaigns.data]);
  const podcastNames = useMemo(() => namesById(podcasts.data?.items), [podcasts.data]);
  const list = pagedList(
    useInfiniteQuery(
      trpc.creatives.list.infiniteQueryOptions(
        { networkId, limit: 50, status, podcast_id: podcastId, offer_id: offerId, ...made },
        { ...byCursor, refetchInterval: (q) => (q.state.data?.pages.some((p) => p.items.some((c) => c.status === 'generating')) ? POLL_MS : false) },
      ),
    ),
  );
  const opened = useOpenObject('creative');
  const generating = list.rows?.filter((c) => c.status === 'generating').length ?? 0;

  const columns = useMemo<DataTableColumn<Creative>[]>(
    () => [
      referenceColumn({
        id: 'campaign',
        header: 'Campaign',
        names: campaignNames,
        idOf: (c) => c.campaign_id,
        href: (c) => networkPath(networkId, `campaigns/${c.campaign_id}`),
      }),
      {
        ...referenceColumn<Creative>({ id: 'podcast', header: 'Podcast', names: podcastNames, idOf: (c) => c.podcast_id }),
        cell: ({ row, getValue }) => (
          <span>
            {getValue<string>()}
            <span className="block text-xs text-slate-600 capitalize">{row.original.voice} voice</span>
          </span>
        ),
      },
      {
        accessorKey: 'status',
        header: 'Status',
        cell: ({ row }) => (
          <span>
            <span data-testid={`creative-status-${row.original.id}`}>
              <StatusBadge status={row.original.status} />
            </span>
            <span className="block text-xs text-slate-600">Revision {row.original.revision}</span>
          </span>
        ),
      },
      {
        id: 'audio',
        header: 'Audio',
        enableSorting: false,
        cell: ({ row }) => (
          <CreativeAudio
            creative={row.original}
            canAdminister={canAdminister}
            label={`${campaignNames.get(row.original.campaign_id) ?? 'Creative'} on ${podcastNames.get(row.original.podcast_id) ?? 'podcast'}`}
          />
        ),
      },
      {
        accessorKey: 'duration_ms',
        header: 'Length',
        cell: ({ row }) => <span className="whitespace-nowrap tabular-nums">{formatDuration(row.original.duration_ms)}</span>,
      },
      dateTimeColumn('created_at', 'Created'),
    ],
    [campaignNames, podcastNames, networkId, canAdminister],
  );

  return (
    <>
      <ListPage
        title="Creatives"
        exportCsv={{ path: `/networks/${networkId}/creatives`, params: { status, podcast_id: podcastId, offer_id: offerId, ...made } }}
        description="The host-voiced audio of accepted offers, made by speech synthesis in a copy of the host’s voice under their consent, and approved by the host (or an administrator on their behalf) before it is delivered. This page updates by itself while any is generating."
        filters={filters}
        clearLabel="Show all creatives"
        toolbar={
          <>
            <ListFilter filters={filters} name="status" label="Status" placeholder="All statuses" options={optionsOf(creativeStatusSchema.options)} />
            <ListFilter
              filters={filters}
              name="podcast"
              label="Podcast"
              placeholder="All podcasts"
              options={namedOptions(podcasts.data?.items)}
              wide
            />
            <ListDateRange filters={filters} label="Made" />
            {offerId && <p className="text-sm text-slate-700 sm:pb-2">Showing every revision of one offer’s creative.</p>}
          </>
        }
        notice={
          <p role="status" aria-live="polite" className="mb-3 min-h-5 text-sm text-slate-600">
            {generating > 0 ? (
              <span className="inline-flex items-center gap-2">
                <Loader2 className="size-4 animate-spin" aria-hidden /> {generating === 1 ? 'One creative is' : `${generating} creatives are`} being
                generated — this list updates by itself.
              </span>
            ) : null}
          </p>
        }
        list={list}
        columns={columns}
        onRowClick={(creative) => opened.open(creative.id)}
        selectedRowId={opened.id ?? undefined}
        empty={{
          icon: <FileAudio className="size-6" />,
          title: 'No creatives yet',
          description: 'A creative is made when an offer is accepted.',
          action: (
            <Button asChild variant="secondary">
              <IntentLink href={networkPath(networkId, 'offers')}>Go to offers</IntentLink>
            </Button>
          ),
        }}
      />
      <CreativeSheet
        creativeId={opened.id}
        onClose={opened.close}
        canAdminister={canAdminister}
        campaignNames={campaignNames}
        podcastNames={podcastNames}
        hrefOf={opened.href}
      />
    </>
  );
}
