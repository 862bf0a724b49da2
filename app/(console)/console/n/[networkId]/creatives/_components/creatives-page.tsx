'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FileAudio, Loader2, RotateCw } from 'lucide-react';
import Link from 'next/link';
import { useMemo } from 'react';
import type { z } from 'zod';
import type { creativeSchema } from '@/server/routers/creatives/creative.types';
import { AuthorizedAudio } from '../../../../../_components/ui/authorized-audio';
import { StatusBadge } from '../../../../../_components/ui/badge';
import { Button } from '../../../../../_components/ui/button';
import { DataTable, type DataTableColumn } from '../../../../../_components/ui/data-table';
import { Label } from '../../../../../_components/ui/label';
import { Select } from '../../../../../_components/ui/select';
import { EmptyState, PageHeader } from '../../../../../_components/ui/states';
import { toast } from '../../../../../_components/ui/toaster';
import { creativeAudioPath, formatDateTime, formatDuration, namesById, useCampaigns, usePagedList, usePodcasts } from '../../../../../_lib/ads';
import { networkPath, useCanAdminister, useNetworkId } from '../../../../../_lib/network';
import { useUrlFilters } from '../../../../../_lib/url-filters';
import { problemSentence } from '../../../../../_lib/problem';
import { api } from '../../../../../_lib/trpc';

type Creative = z.infer<typeof creativeSchema>;
type CreativeStatus = Creative['status'];

const STATUS_OPTIONS: { value: CreativeStatus; label: string }[] = [
  { value: 'generating', label: 'Generating' },
  { value: 'ready', label: 'Ready' },
  { value: 'failed', label: 'Failed' },
];

/** How often the list is refreshed while a creative is generating (and not at all otherwise). */
const POLL_MS = 1500;

export function CreativesPage() {
  const networkId = useNetworkId();
  const canAdminister = useCanAdminister(networkId);
  const { searchParams, setFilter, clearFilters } = useUrlFilters();
  const statusParam = searchParams.get('status');
  const status = STATUS_OPTIONS.some((o) => o.value === statusParam) ? (statusParam as CreativeStatus) : undefined;
  const offerId = searchParams.get('offer') || undefined;

  const campaigns = useCampaigns(networkId);
  const podcasts = usePodcasts(networkId);
  const campaignNames = useMemo(() => namesById(campaigns.data?.items), [campaigns.data]);
  const podcastNames = useMemo(() => namesById(podcasts.data?.items), [podcasts.data]);
  const list = usePagedList(
    api.creatives.list,
    { networkId, limit: 50, status, offer_id: offerId },
    { refetchInterval: (rows) => (rows.some((c) => c.status === 'generating') ? POLL_MS : false) },
  );
  const generating = list.rows?.filter((c) => c.status === 'generating').length ?? 0;

  const setStatus = (value: string) => setFilter('status', value);

  const columns = useMemo<DataTableColumn<Creative>[]>(
    () => [
      {
        id: 'campaign',
        header: 'Campaign',
        accessorFn: (c) => campaignNames.get(c.campaign_id) ?? c.campaign_id,
        cell: ({ row, getValue }) => (
          <Link href={networkPath(networkId, `campaigns/${row.original.campaign_id}`)} className="font-medium text-indigo-700 underline-offset-4 hover:underline">
            {getValue<string>()}
          </Link>
        ),
      },
      {
        id: 'podcast',
        header: 'Podcast',
        accessorFn: (c) => podcastNames.get(c.podcast_id) ?? c.podcast_id,
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
          <span data-testid={`creative-status-${row.original.id}`}>
            <StatusBadge status={row.original.status} />
          </span>
        ),
      },
      {
        id: 'audio',
        header: 'Audio',
        enableSorting: false,
        cell: ({ row }) => <CreativeAudio creative={row.original} canAdminister={canAdminister} label={`${campaignNames.get(row.original.campaign_id) ?? 'Creative'} on ${podcastNames.get(row.original.podcast_id) ?? 'podcast'}`} />,
      },
      { accessorKey: 'duration_ms', header: 'Length', cell: ({ row }) => <span className="whitespace-nowrap tabular-nums">{formatDuration(row.original.duration_ms)}</span> },
      { accessorKey: 'created_at', header: 'Created', cell: ({ row }) => <span className="whitespace-nowrap">{formatDateTime(row.original.created_at)}</span> },
    ],
    [campaignNames, podcastNames, networkId, canAdminister],
  );

  return (
    <>
      <PageHeader
        title="Creatives"
        description="The host-voiced audio of accepted offers. A creative is generated in the podcast’s voice preset; this page updates by itself while any is generating."
      />
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="space-y-1.5 sm:w-48">
          <Label htmlFor="creative-status-filter">Status</Label>
          <Select id="creative-status-filter" value={status ?? ''} onChange={(e) => setStatus(e.target.value)} placeholder="All statuses" options={STATUS_OPTIONS} />
        </div>
        {offerId && (
          <p className="flex items-center gap-2 text-sm text-slate-700">
            Showing the creative of one offer.
            <Button variant="link" size="sm" className="px-0" onClick={clearFilters}>
              Show all creatives
            </Button>
          </p>
        )}
      </div>
      <p role="status" aria-live="polite" className="mb-3 min-h-5 text-sm text-slate-600">
        {generating > 0 ? (
          <span className="inline-flex items-center gap-2">
            <Loader2 className="size-4 animate-spin" aria-hidden /> {generating === 1 ? 'One creative is' : `${generating} creatives are`} being generated — this list updates by itself.
          </span>
        ) : null}
      </p>
      <DataTable
        label="Creatives"
        columns={columns}
        rows={list.rows}
        error={list.error}
        onRetry={list.refetch}
        hasMore={list.hasMore}
        onLoadMore={list.loadMore}
        loadingMore={list.loadingMore}
        empty={
          status || offerId ? (
            <EmptyState title="No creatives match" description="Change or clear the filter to see more." />
          ) : (
            <EmptyState
              icon={<FileAudio className="size-6" />}
              title="No creatives yet"
              description="A creative is made when an offer is accepted."
              action={
                <Button asChild variant="secondary">
                  <Link href={networkPath(networkId, 'offers')}>Go to offers</Link>
                </Button>
              }
            />
          )
        }
      />
    </>
  );
}

function CreativeAudio({ creative, canAdminister, label }: { creative: Creative; canAdminister: boolean; label: string }) {
  const networkId = useNetworkId();
  const queryClient = useQueryClient();
  const retry = useMutation(
    api.creatives.retry.mutationOptions({
      onSuccess: () => toast.success('Generating the creative again.'),
      onError: (error) => toast.error(problemSentence(error, 'retry the creative')),
      onSettled: () => queryClient.invalidateQueries({ queryKey: api.creatives.pathKey() }),
    }),
  );
  if (creative.status === 'ready') return <AuthorizedAudio path={creativeAudioPath(networkId, creative.id)} label={`Audio: ${label}`} />;
  if (creative.status === 'generating') {
    return (
      <span className="inline-flex items-center gap-2 text-sm text-slate-600">
        <Loader2 className="size-4 animate-spin" aria-hidden /> Generating{creative.attempts > 1 ? ` (attempt ${creative.attempts})` : ''}…
      </span>
    );
  }
  return (
    <div className="max-w-72 space-y-2">
      <p className="text-sm text-red-800">{creative.failure_reason ?? 'The voice could not be generated.'}</p>
      {canAdminister && (
        <Button variant="secondary" size="sm" loading={retry.isPending} onClick={() => retry.mutate({ networkId, creativeId: creative.id })} aria-label={`Retry ${label}`}>
          <RotateCw aria-hidden /> Retry
        </Button>
      )}
    </div>
  );
}
