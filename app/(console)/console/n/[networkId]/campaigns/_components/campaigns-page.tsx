'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import { Megaphone } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useMemo, useState } from 'react';
import { campaignStatusSchema, type Campaign } from '@/server/routers/campaigns/campaign.types';
import { ListDateRange, ListFilter, ListPage, moneyColumn, nameColumn, referenceColumn } from '@/app/(console)/_components/list-page';
import { StatusBadge } from '@/app/(console)/_components/ui/badge';
import type { DataTableColumn } from '@/app/(console)/_components/ui/data-table';
import { namedOptions, optionsOf } from '@/app/(console)/_components/ui/select';
import { namesById, useAdvertisers } from '@/app/(console)/_lib/ads';
import { networkPath, useCanAdminister, useNetworkId } from '@/app/(console)/_lib/network';
import { byCursor, pagedList } from '@/app/(console)/_lib/paged-list';
import { useTRPC } from '@/app/(console)/_lib/trpc';
import { dayRange, useListFilters } from '@/app/(console)/_lib/url-filters';
import { CreateCampaignDialog } from './campaign-form';
import { formatDateTime } from '@/app/(console)/_lib/dates';

export function CampaignsPage() {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const canAdminister = useCanAdminister(networkId);
  const router = useRouter();
  const filters = useListFilters({ status: campaignStatusSchema.options, advertiser: 'id', from: 'date', to: 'date' });
  const { status, advertiser: advertiserId, from, to } = filters.values;
  const created = dayRange(from, to);
  const [creating, setCreating] = useState(false);

  const advertisers = useAdvertisers(networkId);
  const advertiserNames = useMemo(() => namesById(advertisers.data?.items), [advertisers.data]);
  const list = pagedList(
    useInfiniteQuery(trpc.campaigns.list.infiniteQueryOptions({ networkId, limit: 50, status, advertiser_id: advertiserId, ...created }, byCursor)),
  );

  const columns = useMemo<DataTableColumn<Campaign>[]>(
    () => [
      nameColumn('Name', (c) => networkPath(networkId, `campaigns/${c.id}`)),
      referenceColumn({ id: 'advertiser', header: 'Advertiser', names: advertiserNames, idOf: (c) => c.advertiser_id }),
      { accessorKey: 'status', header: 'Status', cell: ({ row }) => <StatusBadge status={row.original.status} /> },
      moneyColumn('budget', 'Budget', (c) => ({ cents: c.budget_cents, currency: c.currency })),
      {
        id: 'schedule',
        header: 'Schedule',
        enableSorting: false,
        cell: ({ row }) =>
          row.original.starts_at || row.original.ends_at ? (
            <span>
              <span className="whitespace-nowrap">{formatDateTime(row.original.starts_at)} →</span>{' '}
              <span className="whitespace-nowrap">{formatDateTime(row.original.ends_at)}</span>
            </span>
          ) : (
            <span className="text-slate-500">Not scheduled</span>
          ),
      },
      {
        id: 'script',
        header: 'Script',
        enableSorting: false,
        cell: ({ row }) =>
          row.original.script ? (
            <p className="line-clamp-2 max-w-xs text-slate-700 sm:min-w-48" title={row.original.script}>
              {row.original.script}
            </p>
          ) : (
            <span className="text-slate-500">No script yet</span>
          ),
      },
    ],
    [advertiserNames, networkId],
  );

  const create = () => setCreating(true);
  return (
    <>
      <ListPage
        title="Campaigns"
        exportCsv={{ path: `/networks/${networkId}/campaigns`, params: { status, advertiser_id: advertiserId, ...created } }}
        description="An advertiser’s script and budget. Draft and active campaigns can be offered to opted-in podcasts; open a campaign to change its status or hear it in a host’s voice."
        create={canAdminister ? { label: 'New campaign', onClick: create } : undefined}
        filters={filters}
        toolbar={
          <>
            <ListFilter filters={filters} name="status" label="Status" placeholder="All statuses" options={optionsOf(campaignStatusSchema.options)} />
            <ListFilter
              filters={filters}
              name="advertiser"
              label="Advertiser"
              placeholder="All advertisers"
              options={namedOptions(advertisers.data?.items)}
              wide
            >
              {advertiserId && !advertiserNames.has(advertiserId) && <option value={advertiserId}>{advertiserId}</option>}
            </ListFilter>
            <ListDateRange filters={filters} label="Created" />
          </>
        }
        list={list}
        columns={columns}
        empty={{
          icon: <Megaphone className="size-6" />,
          title: 'No campaigns yet',
          description:
            advertisers.data?.items.length === 0
              ? 'Create an advertiser first, then its campaigns.'
              : 'A campaign holds the script the host voices read.',
        }}
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
