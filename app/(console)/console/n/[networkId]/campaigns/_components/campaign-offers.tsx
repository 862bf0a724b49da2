'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import { Handshake } from 'lucide-react';
import { IntentLink } from '@/app/(console)/_components/ui/intent-link';
import { useMemo } from 'react';
import { dateTimeColumn, referenceColumn, Unset } from '@/app/(console)/_components/list-page';
import { StatusBadge } from '@/app/(console)/_components/ui/badge';
import { buttonVariants } from '@/app/(console)/_components/ui/button';
import { Card, CardDescription, CardHeader, CardTitle } from '@/app/(console)/_components/ui/card';
import { DataTable, type DataTableColumn } from '@/app/(console)/_components/ui/data-table';
import { EmptyState } from '@/app/(console)/_components/ui/states';
import { formatDuration, namesById, usePodcasts } from '@/app/(console)/_lib/ads';
import { networkPath } from '@/app/(console)/_lib/network';
import { byCursor, pagedList, pagedTable } from '@/app/(console)/_lib/paged-list';
import { useTRPC } from '@/app/(console)/_lib/trpc';
import type { Offer } from '@/app/(console)/console/n/[networkId]/offers/_components/offer-actions';
import { FlightName, offerPriceColumn } from '@/app/(console)/console/n/[networkId]/offers/_components/offer-terms';

/** The campaign's offers, each with its podcast and, once accepted, its creative. */
export function CampaignOffers({ networkId, campaignId }: { networkId: string; campaignId: string }) {
  const trpc = useTRPC();
  const podcasts = usePodcasts(networkId);
  const podcastNames = useMemo(() => namesById(podcasts.data?.items), [podcasts.data]);
  const offers = pagedList(useInfiniteQuery(trpc.offers.list.infiniteQueryOptions({ networkId, limit: 50, campaign_id: campaignId }, byCursor)));
  const creatives = pagedList(
    useInfiniteQuery(trpc.creatives.list.infiniteQueryOptions({ networkId, limit: 50, campaign_id: campaignId }, byCursor)),
  );
  // The campaign's flights, as its flights card lists them (the same query).
  const flights = pagedList(useInfiniteQuery(trpc.flights.list.infiniteQueryOptions({ networkId, campaignId, limit: 50 }, byCursor)));
  const flightNames = useMemo(() => namesById(flights.rows), [flights.rows]);
  const flightsLoaded = flights.rows !== undefined;
  // An offer's creative is its newest revision (older ones had changes requested).
  const creativeByOffer = useMemo(() => {
    const newest = new Map<string, NonNullable<typeof creatives.rows>[number]>();
    for (const c of creatives.rows ?? []) if ((newest.get(c.offer_id)?.revision ?? 0) < c.revision) newest.set(c.offer_id, c);
    return newest;
  }, [creatives.rows]);

  const columns = useMemo<DataTableColumn<Offer>[]>(
    () => [
      referenceColumn({
        id: 'podcast',
        header: 'Podcast',
        names: podcastNames,
        idOf: (o) => o.podcast_id,
        href: (o) => networkPath(networkId, `offers?campaign=${encodeURIComponent(o.campaign_id)}&podcast=${encodeURIComponent(o.podcast_id)}`),
      }),
      {
        id: 'flight',
        header: 'Flight',
        accessorFn: (o) => (o.flight_id ? (flightNames.get(o.flight_id) ?? o.flight_id) : ''),
        // A flight not among the campaign's (deleted since) is read on its own.
        cell: ({ row, getValue }) => {
          const flightId = row.original.flight_id;
          if (!flightId) return <Unset />;
          return flightNames.has(flightId) || !flightsLoaded ? getValue<string>() : <FlightName flightId={flightId} />;
        },
      },
      { accessorKey: 'status', header: 'Offer', cell: ({ row }) => <StatusBadge status={row.original.status} /> },
      offerPriceColumn(),
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
    [podcastNames, flightNames, flightsLoaded, creativeByOffer, networkId],
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
            description="Offer a flight to podcasts from its row above, or the campaign alone on the Offers page."
          />
        }
      />
    </Card>
  );
}
