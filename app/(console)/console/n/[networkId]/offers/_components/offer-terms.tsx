'use client';

import { useQuery } from '@tanstack/react-query';
import { DetailItem } from '@/app/(console)/_components/detail-sheet';
import type { DataTableColumn } from '@/app/(console)/_components/ui/data-table';
import { DateTime } from '@/app/(console)/_components/ui/date-time';
import { offerPrice, PLACEMENT_LABELS } from '@/app/(console)/_lib/ads';
import { statusOf } from '@/app/(console)/_lib/problem';
import { useNetworkId } from '@/app/(console)/_lib/network';
import { useTRPC } from '@/app/(console)/_lib/trpc';
import type { Offer } from './offer-actions';

/*
 * An offer made on a flight carries the flight's terms as they were when it was made (placement,
 * dates, longest ad, pricing, this podcast's goal): the price shown is theirs.
 */

/** The offer's price: "$25.00 CPM · 50,000 impressions" on a flight, "$250.00" without one; sorted by amount. */
export function offerPriceColumn(): DataTableColumn<Offer> {
  return {
    id: 'price',
    header: 'Price',
    accessorFn: (offer) => offer.terms?.pricing.amount_cents ?? offer.price_cents ?? -1,
    cell: ({ row }) => <span className="tabular-nums">{offerPrice(row.original)}</span>,
  };
}

/** A flight's name, read by id (an offer names its flight by id only); "a deleted flight" once it is gone. */
export function FlightName({ flightId }: { flightId: string }) {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const flight = useQuery(trpc.flights.get.queryOptions({ networkId, flightId }, { staleTime: 60_000 }));
  if (flight.data) return <>{flight.data.name}</>;
  if (flight.error) return <span className="text-slate-600">{statusOf(flight.error) === 404 ? 'A deleted flight' : flightId}</span>;
  return <span className="text-slate-500">{flightId}</span>;
}

/** The sheet's lines for an offer's terms (none for an offer made without a flight). */
export function OfferTermsItems({ offer }: { offer: Offer }) {
  const terms = offer.terms;
  if (!offer.flight_id || !terms) return null;
  return (
    <>
      <DetailItem label="Flight">
        <FlightName flightId={offer.flight_id} />
      </DetailItem>
      <DetailItem label="Placement">
        {PLACEMENT_LABELS[terms.placement]}, max {terms.max_duration_seconds} s
      </DetailItem>
      <DetailItem label="Runs" wide>
        <DateTime value={terms.starts_at} /> → <DateTime value={terms.ends_at} />
      </DetailItem>
    </>
  );
}
