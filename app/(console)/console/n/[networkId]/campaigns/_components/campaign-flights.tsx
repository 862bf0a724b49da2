'use client';

import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { CalendarRange, Pencil, Plus, Send, Trash2 } from 'lucide-react';
import { Fragment, useMemo, useState } from 'react';
import type { Campaign } from '@/server/routers/campaigns/campaign.types';
import type { Flight } from '@/server/routers/flights/flight.types';
import { useBulkRun } from '@/app/(console)/_components/bulk-run';
import { actionsColumn } from '@/app/(console)/_components/list-page';
import { StatusBadge } from '@/app/(console)/_components/ui/badge';
import { Button } from '@/app/(console)/_components/ui/button';
import { Card, CardDescription, CardHeader, CardTitle } from '@/app/(console)/_components/ui/card';
import { DangerAction } from '@/app/(console)/_components/ui/confirm-dialog';
import { DataTable, type DataTableColumn } from '@/app/(console)/_components/ui/data-table';
import { DateTime } from '@/app/(console)/_components/ui/date-time';
import { EmptyState } from '@/app/(console)/_components/ui/states';
import { IntentLink } from '@/app/(console)/_components/ui/intent-link';
import { toast } from '@/app/(console)/_components/ui/toaster';
import { PLACEMENT_LABELS, pricingParts } from '@/app/(console)/_lib/ads';
import { networkPath, useCanAdminister, useNetworkId } from '@/app/(console)/_lib/network';
import { byCursor, pagedList, pagedTable } from '@/app/(console)/_lib/paged-list';
import { problemSentence } from '@/app/(console)/_lib/problem';
import { useTRPC } from '@/app/(console)/_lib/trpc';
import { CreateFlightDialog, EditFlightDialog } from './flight-form';
import { OfferFlightDialog } from './offer-flight-dialog';
import { PacingBadge } from './pacing';

const FLIGHT_STATUS_HELP: Record<Flight['status'], string> = {
  scheduled: 'Starts later',
  live: 'Running now',
  ended: 'Over',
};

/** The campaign's flights (its insertion order's lines): terms and status, with create, edit and delete. */
export function CampaignFlights({ campaign }: { campaign: Campaign }) {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const canAdminister = useCanAdminister(networkId);
  // An archived campaign is final: its flights can no longer be added, changed or deleted.
  const canChange = canAdminister && campaign.status !== 'archived';
  const flights = pagedList(useInfiniteQuery(trpc.flights.list.infiniteQueryOptions({ networkId, campaignId: campaign.id, limit: 50 }, byCursor)));
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Flight | null>(null);
  const [offering, setOffering] = useState<Flight | null>(null);
  const queryClient = useQueryClient();
  const bulk = useBulkRun({
    onFinished: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: trpc.offers.pathKey() }),
        queryClient.invalidateQueries({ queryKey: trpc.flights.eligiblePodcasts.pathKey() }),
      ]),
  });

  const columns = useMemo<DataTableColumn<Flight>[]>(
    () => [
      {
        accessorKey: 'name',
        header: 'Flight',
        // The status beside the name, the delivery and pacing under it: the table stays narrow enough for the row's three buttons.
        cell: ({ row }) => (
          <div className="min-w-36 space-y-1">
            <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
              <IntentLink
                href={networkPath(networkId, `campaigns/${encodeURIComponent(campaign.id)}/flights/${encodeURIComponent(row.original.id)}`)}
                className="font-medium text-indigo-700 underline-offset-4 hover:underline"
                aria-label={`${row.original.name}: delivery`}
              >
                {row.original.name}
              </IntentLink>
              <span title={FLIGHT_STATUS_HELP[row.original.status]}>
                <StatusBadge status={row.original.status} />
              </span>
            </div>
            <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-600" data-testid="flight-delivery">
              <span className="whitespace-nowrap tabular-nums">{row.original.delivered_impressions.toLocaleString()} delivered</span>
              {row.original.pacing ? <PacingBadge pacing={row.original.pacing} compact /> : <span>No goal, no pacing</span>}
            </div>
            {row.original.external_order_id && <div className="text-xs text-slate-600">Order {row.original.external_order_id}</div>}
          </div>
        ),
      },
      {
        accessorKey: 'starts_at',
        header: 'Dates',
        cell: ({ row }) => (
          <span className="block">
            <span className="block whitespace-nowrap">
              <DateTime value={row.original.starts_at} /> →
            </span>
            <span className="block whitespace-nowrap">
              <DateTime value={row.original.ends_at} />
            </span>
          </span>
        ),
      },
      {
        id: 'terms',
        header: 'Terms',
        accessorFn: (flight) => flight.pricing.amount_cents,
        // Placement and length, then the price; lines wrap between their parts, never inside one.
        cell: ({ row }) => (
          <div className="min-w-40">
            <div className="whitespace-nowrap">
              {PLACEMENT_LABELS[row.original.placement]} · max {row.original.max_duration_seconds} s
            </div>
            <div className="tabular-nums" data-testid="flight-pricing">
              {pricingParts(row.original.pricing, row.original.impression_goal).map((part, i) => (
                <Fragment key={part}>
                  {i > 0 && ' · '}
                  <span className="whitespace-nowrap">{part}</span>
                </Fragment>
              ))}
            </div>
          </div>
        ),
      },
      ...(canChange
        ? [
            actionsColumn<Flight>((flight) => (
              <div className="flex justify-end gap-1 whitespace-nowrap">
                {/* An ended flight can no longer be offered. */}
                {flight.status !== 'ended' && (
                  <Button variant="secondary" size="sm" onClick={() => setOffering(flight)} aria-label={`Offer ${flight.name} to podcasts`}>
                    <Send aria-hidden /> Offer
                  </Button>
                )}
                <Button variant="ghost" size="sm" onClick={() => setEditing(flight)} aria-label={`Edit ${flight.name}`}>
                  <Pencil aria-hidden /> Edit
                </Button>
                <DeleteFlight flight={flight} />
              </div>
            )),
          ]
        : []),
    ],
    [canChange, networkId, campaign.id],
  );

  const create = canChange ? () => setCreating(true) : undefined;
  return (
    <Card aria-labelledby="campaign-flights-title">
      <CardHeader className="items-center">
        <div>
          <CardTitle id="campaign-flights-title">Flights</CardTitle>
          <CardDescription>
            The lines of the insertion order: when the ad runs, where in the episode, how long it may be, and the price. Offer a flight to podcasts
            from its row; its status follows from the dates. A flight’s name opens its delivery: daily impressions, pacing and podcasts.
          </CardDescription>
        </div>
        {create && (
          <Button size="sm" onClick={create}>
            <Plus aria-hidden /> New flight
          </Button>
        )}
      </CardHeader>
      <DataTable
        label="Flights of this campaign"
        className="rounded-none border-0 shadow-none"
        columns={columns}
        {...pagedTable(flights)}
        empty={
          <EmptyState
            icon={<CalendarRange className="size-6" />}
            title="No flights yet"
            description={
              campaign.status === 'archived'
                ? 'An archived campaign takes no new flights.'
                : 'Add a flight for each line of the insertion order, then offer it to podcasts.'
            }
            action={create && <Button onClick={create}>New flight</Button>}
          />
        }
      />
      {campaign.status === 'archived' && flights.rows?.length ? (
        <p className="border-t border-slate-100 px-5 py-3 text-sm text-slate-600">The campaign is archived: its flights can no longer be changed.</p>
      ) : null}
      {canChange && <CreateFlightDialog campaign={campaign} open={creating} onOpenChange={setCreating} />}
      {editing && <EditFlightDialog flight={editing} campaign={campaign} onClose={() => setEditing(null)} />}
      {offering && (
        <OfferFlightDialog
          flight={offering}
          campaign={campaign}
          onClose={() => setOffering(null)}
          onSent={(spec, settled) => {
            setOffering(null);
            bulk.start(spec, settled);
          }}
        />
      )}
      {bulk.dialog}
    </Card>
  );
}

function DeleteFlight({ flight }: { flight: Flight }) {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const queryClient = useQueryClient();
  const remove = useMutation(
    trpc.flights.remove.mutationOptions({ onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.flights.pathKey() }) }),
  );
  return (
    <DangerAction
      label="Delete"
      icon={<Trash2 aria-hidden />}
      ariaLabel={`Delete ${flight.name}`}
      title={`Delete ${flight.name}?`}
      description="The flight leaves the campaign and the API. Offers already made on it keep its terms. A flight with accepted offers cannot be deleted: their terms are the contract."
      confirmLabel="Delete flight"
      failure={(error) => problemSentence(error, 'delete the flight')}
      action={async () => {
        await remove.mutateAsync({ networkId, flightId: flight.id });
        toast.success(`Flight “${flight.name}” deleted.`);
      }}
    />
  );
}
