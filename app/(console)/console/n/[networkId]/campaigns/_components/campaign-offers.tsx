'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import { Handshake } from 'lucide-react';
import { IntentLink } from '@/app/(console)/_components/ui/intent-link';
import { useMemo } from 'react';
import type { z } from 'zod';
import type { offerSchema } from '@/server/routers/offers/offer.types';
import { dateTimeColumn, moneyColumn, referenceColumn } from '@/app/(console)/_components/list-page';
import { StatusBadge } from '@/app/(console)/_components/ui/badge';
import { buttonVariants } from '@/app/(console)/_components/ui/button';
import { Card, CardDescription, CardHeader, CardTitle } from '@/app/(console)/_components/ui/card';
import { DataTable, type DataTableColumn } from '@/app/(console)/_components/ui/data-table';
import { EmptyState } from '@/app/(console)/_components/ui/states';
import { formatDuration, namesById, usePodcasts } from '@/app/(console)/_lib/ads';
import { networkPath } from '@/app/(console)/_lib/network';
import { byCursor, pagedList, pagedTable } from '@/app/(console)/_lib/paged-list';
import { useTRPC } from '@/app/(console)/_lib/trpc';

type Offer = z.infer<typeof offerSchema>;

/** The campaign's offers, each with its podcast and, once accepted, its creative. */
export function CampaignOffers({ networkId, campaignId }: { networkId: string; campaignId: string }) {
  const trpc = useTRPC();
  const podcasts = usePodcasts(networkId);
  const podcastNames = useMemo(() => namesById(podcasts.data?.items), [podcasts.data]);
  const offers = pagedList(useInfiniteQuery(trpc.offers.list.infiniteQueryOptions({ networkId, limit: 50, campaign_id: campaignId }, byCursor)));
  const creatives = pagedList(
    useInfiniteQuery(trpc.creatives.list.infiniteQueryOptions({ networkId, limit: 50, campaign_id: campaignId }, byCursor)),
  );
  const creativeByOffer = useMemo(() => new Map((creatives.rows ?? []).map((c) => [c.offer_id, c])), [creatives.rows]);

  const columns = useMemo<DataTableColumn<Offer>[]>(
    () => [
      referenceColumn({
        id: 'podcast',
        header: 'Podcast',
        names: podcastNames,
        idOf: (o) => o.podcast_id,
        href: (o) => networkPath(networkId, `offers?campaign=${encodeURIComponent(o.campaign_id)}&podcast=${encodeURIComponent(o.podcast_id)}`),
      }),
      { accessorKey: 'status', header: 'Offer', cell: ({ row }) => <StatusBadge status={row.original.status} /> },
      moneyColumn('price', 'Price', (o) => ({ cents: o.price_cents, currency: o.currency })),
      {
        id: 'creative',
        header: 'Creative',
        enableSorting: false,
        cell: ({ row }) => {
          const creative = creativeByOffer.get(row.original.id);
          if (!creative) return <span className="text-slate-500">{row.original.status === 'accepted' ? 'Loading…' : 'None until accepted'}</span>;
          return (
            <span className="inline-flex flex-wrap items-center gap-2">
              <StatusBadge status={creative.status} />
              {creative.duration_ms !== null && <span className="text-xs text-slate-600 tabular-nums">{formatDuration(creative.duration_ms)}</span>}
              <IntentLink
                href={networkPath(networkId, `creatives?offer=${encodeURIComponent(row.original.id)}`)}
                className="text-indigo-700 underline-offset-4 hover:underline"
              >
                Open creative
              </IntentLink>
            </span>
          );
        },
      },
      dateTimeColumn('created_at', 'Offered'),
    ],
    [podcastNames, creativeByOffer, networkId],
  );

  return (
    <Card aria-labelledby="campaign-offers-title">
      <CardHeader className="items-center">
        <div>
          <CardTitle id="campaign-offers-title">Offers and creatives</CardTitle>
          <CardDescription>
            Where this campaign was offered, what each podcast answered, and the host-voiced creative of each accepted offer.
          </CardDescription>
        </div>
        <IntentLink
          href={networkPath(networkId, `offers?campaign=${encodeURIComponent(campaignId)}`)}
          className={buttonVariants({ variant: 'secondary', size: 'sm' })}
        >
          All its offers
        </IntentLink>
      </CardHeader>
      <DataTable
        label="Offers of this campaign"
        className="rounded-none border-0 shadow-none"
        columns={columns}
        {...pagedTable(offers)}
        error={offers.error ?? creatives.error}
        empty={
          <EmptyState
            icon={<Handshake className="size-6" />}
            title="Not offered yet"
            description="Offer this campaign to opted-in podcasts on the Offers page."
          />
        }
      />
    </Card>
  );
}
