'use client';

import { Megaphone, Plus } from 'lucide-react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useMemo, useState } from 'react';
import type { Campaign } from '@/server/routers/campaigns/campaign.types';
import { StatusBadge } from '../../../../../_components/ui/badge';
import { Button } from '../../../../../_components/ui/button';
import { DataTable, type DataTableColumn } from '../../../../../_components/ui/data-table';
import { Label } from '../../../../../_components/ui/label';
import { Select } from '../../../../../_components/ui/select';
import { EmptyState, PageHeader } from '../../../../../_components/ui/states';
import { formatDateTime, formatMoney, namesById, useAdvertisers, usePagedList } from '../../../../../_lib/ads';
import { networkPath, useCanAdminister, useNetworkId } from '../../../../../_lib/network';
import { useUrlFilters } from '../../../../../_lib/url-filters';
import { api } from '../../../../../_lib/trpc';
import { CreateCampaignDialog } from './campaign-form';
import { CAMPAIGN_STATUS_OPTIONS, type CampaignStatus } from './campaign-status';

export function CampaignsPage() {
  const networkId = useNetworkId();
  const canAdminister = useCanAdminister(networkId);
  const router = useRouter();
  const { searchParams, setFilter, clearFilters } = useUrlFilters();
  const statusParam = searchParams.get('status');
  const status = CAMPAIGN_STATUS_OPTIONS.some((o) => o.value === statusParam) ? (statusParam as CampaignStatus) : undefined;
  const advertiserId = searchParams.get('advertiser') || undefined;
  const [creating, setCreating] = useState(false);

  const advertisers = useAdvertisers(networkId);
  const advertiserNames = useMemo(() => namesById(advertisers.data?.items), [advertisers.data]);
  const list = usePagedList(api.campaigns.list, { networkId, limit: 50, status, advertiser_id: advertiserId });

  const columns = useMemo<DataTableColumn<Campaign>[]>(
    () => [
      {
        accessorKey: 'name',
        header: 'Name',
        cell: ({ row }) => (
          <Link href={networkPath(networkId, `campaigns/${row.original.id}`)} className="font-medium text-indigo-700 underline-offset-4 hover:underline">
            {row.original.name}
          </Link>
        ),
      },
      {
        id: 'advertiser',
        header: 'Advertiser',
        accessorFn: (c) => advertiserNames.get(c.advertiser_id) ?? c.advertiser_id,
      },
      { accessorKey: 'status', header: 'Status', cell: ({ row }) => <StatusBadge status={row.original.status} /> },
      {
        id: 'budget',
        header: 'Budget',
        accessorFn: (c) => c.budget_cents ?? -1,
        cell: ({ row }) => <span className="tabular-nums">{formatMoney(row.original.budget_cents, row.original.currency)}</span>,
      },
      {
        id: 'schedule',
        header: 'Schedule',
        enableSorting: false,
        cell: ({ row }) =>
          row.original.starts_at || row.original.ends_at ? (
            <span className="whitespace-nowrap">
              {formatDateTime(row.original.starts_at)} → {formatDateTime(row.original.ends_at)}
            </span>
          ) : (
            <span className="text-slate-500">Not scheduled</span>
          ),
      },
      {
        id: 'script',
        header: 'Script',
        enableSorting: false,
        cell: ({ row }) => <span className="tabular-nums text-slate-600">{row.original.script.length.toLocaleString()} chars</span>,
      },
    ],
    [advertiserNames, networkId],
  );

  const filtered = Boolean(status || advertiserId);

  return (
    <>
      <PageHeader
        title="Campaigns"
        description="An advertiser’s script and budget. Draft and active campaigns can be offered to opted-in podcasts; open a campaign to change its status or hear it in a host’s voice."
        actions={
          canAdminister && (
            <Button onClick={() => setCreating(true)}>
              <Plus aria-hidden /> New campaign
            </Button>
          )
        }
      />
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="space-y-1.5 sm:w-48">
          <Label htmlFor="campaign-status-filter">Status</Label>
          <Select id="campaign-status-filter" value={status ?? ''} onChange={(e) => setFilter('status', e.target.value)} placeholder="All statuses" options={CAMPAIGN_STATUS_OPTIONS} />
        </div>
        <div className="space-y-1.5 sm:w-64">
          <Label htmlFor="campaign-advertiser-filter">Advertiser</Label>
          <Select
            id="campaign-advertiser-filter"
            value={advertiserId ?? ''}
            onChange={(e) => setFilter('advertiser', e.target.value)}
            placeholder="All advertisers"
            options={(advertisers.data?.items ?? []).map((a) => ({ value: a.id, label: a.name }))}
          >
            {advertiserId && !advertiserNames.has(advertiserId) && <option value={advertiserId}>{advertiserId}</option>}
          </Select>
        </div>
        {filtered && (
          <Button variant="ghost" onClick={clearFilters}>
            Clear filters
          </Button>
        )}
      </div>
      <DataTable
        label="Campaigns"
        columns={columns}
        rows={list.rows}
        error={list.error}
        onRetry={list.refetch}
        hasMore={list.hasMore}
        onLoadMore={list.loadMore}
        loadingMore={list.loadingMore}
        empty={
          filtered ? (
            <EmptyState title="No campaigns match these filters" description="Change or clear the filters to see more." />
          ) : (
            <EmptyState
              icon={<Megaphone className="size-6" />}
              title="No campaigns yet"
              description={advertisers.data?.items.length === 0 ? 'Create an advertiser first, then its campaigns.' : 'A campaign holds the script the host voices read.'}
              action={canAdminister && <Button onClick={() => setCreating(true)}>New campaign</Button>}
            />
          )
        }
      />
      <CreateCampaignDialog
        open={creating}
        onOpenChange={setCreating}
        advertiserId={advertiserId}
        onCreated={(campaign) => router.push(networkPath(networkId, `campaigns/${campaign.id}`))}
      />
    </>
  );
}
