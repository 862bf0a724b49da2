'use client';

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Handshake } from 'lucide-react';
import { useMemo, useState } from 'react';
import { offerStatusSchema } from '@/server/routers/offers/offer.types';
import { createOfferInput } from '@/server/routers/offers/create-offer.types';
import { useBulkRun } from '@/app/(console)/_components/bulk-run';
import { FormDialog, useFormResetOnClose } from '@/app/(console)/_components/form-dialog';
import { actionsColumn, dateTimeColumn, ListDateRange, ListFilter, ListPage, referenceColumn } from '@/app/(console)/_components/list-page';
import { StatusBadge } from '@/app/(console)/_components/ui/badge';
import { IntentLink } from '@/app/(console)/_components/ui/intent-link';
import type { DataTableColumn } from '@/app/(console)/_components/ui/data-table';
import { FormField } from '@/app/(console)/_components/ui/form';
import { AmountInput, CurrencyInput, Input } from '@/app/(console)/_components/ui/input';
import { namedOptions, optionsOf, Select } from '@/app/(console)/_components/ui/select';
import { toast } from '@/app/(console)/_components/ui/toaster';
import { formatPricing, namesById, useCampaigns, usePodcasts } from '@/app/(console)/_lib/ads';
import { centsFromUnits, localDateTime, optionalNumber } from '@/app/(console)/_lib/form-values';
import { networkPath, useCanAdminister, useNetworkId } from '@/app/(console)/_lib/network';
import { byCursor, pagedList } from '@/app/(console)/_lib/paged-list';
import { useTRPC } from '@/app/(console)/_lib/trpc';
import { dayRange, useListFilters } from '@/app/(console)/_lib/url-filters';
import { useOpenObject } from '@/app/(console)/_lib/open-object';
import { BulkOfferActions, decidable, OfferActions, type Offer } from './offer-actions';
import { OfferSheet } from './offer-sheet';
import { OfferShareFields, type OfferShareForm } from './offer-share-fields';
import { FlightName, offerPriceColumn } from './offer-terms';

const createShape = createOfferInput.shape;
const createSchema = createOfferInput.omit({ networkId: true }).extend({
  price_cents: centsFromUnits(createShape.price_cents),
  amount_cents: centsFromUnits(createShape.amount_cents),
  impression_goal: optionalNumber(createShape.impression_goal),
  expires_at: localDateTime(createShape.expires_at),
});

export function OffersPage() {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const canAdminister = useCanAdminister(networkId);
  const filters = useListFilters({ status: offerStatusSchema.options, campaign: 'id', podcast: 'id', from: 'date', to: 'date' });
  const { status, campaign: campaignId, podcast: podcastId, from, to } = filters.values;
  const made = dayRange(from, to);
  const [creating, setCreating] = useState(false);
  const opened = useOpenObject('offer');

  const campaigns = useCampaigns(networkId);
  const podcasts = usePodcasts(networkId);
  const campaignNames = useMemo(() => namesById(campaigns.data?.items), [campaigns.data]);
  const podcastNames = useMemo(() => namesById(podcasts.data?.items), [podcasts.data]);
  const queryClient = useQueryClient();
  const accept = useMutation(trpc.offers.accept.mutationOptions());
  const reject = useMutation(trpc.offers.reject.mutationOptions());
  const bulk = useBulkRun({
    onFinished: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: trpc.offers.pathKey() }),
        queryClient.invalidateQueries({ queryKey: trpc.creatives.pathKey() }),
      ]),
  });
  const offerName = (o: Offer) => `${campaignNames.get(o.campaign_id) ?? o.campaign_id} on ${podcastNames.get(o.podcast_id) ?? o.podcast_id}`;
  const list = pagedList(
    useInfiniteQuery(
      trpc.offers.list.infiniteQueryOptions({ networkId, limit: 50, status, campaign_id: campaignId, podcast_id: podcastId, ...made }, byCursor),
    ),
  );

  const columns = useMemo<DataTableColumn<Offer>[]>(
    () => [
      {
        ...referenceColumn<Offer>({
          id: 'campaign',
          header: 'Campaign',
          names: campaignNames,
          idOf: (o) => o.campaign_id,
          href: (o) => networkPath(networkId, `campaigns/${o.campaign_id}`),
        }),
        // The flight under its campaign, for an offer made on one.
        cell: ({ row, getValue }) => (
          <div>
            <IntentLink
              href={networkPath(networkId, `campaigns/${row.original.campaign_id}`)}
              className="font-medium text-indigo-700 underline-offset-4 hover:underline"
            >
              {getValue<string>()}
            </IntentLink>
            {row.original.flight_id && (
              <div className="text-xs text-slate-600">
                <FlightName flightId={row.original.flight_id} />
              </div>
            )}
          </div>
        ),
      },
      referenceColumn({ id: 'podcast', header: 'Podcast', names: podcastNames, idOf: (o) => o.podcast_id }),
      {
        accessorKey: 'status',
        header: 'Status',
        cell: ({ row }) => (
          <div className="space-y-1">
            <StatusBadge status={row.original.status} />
            {row.original.status === 'rejected' && row.original.reject_reason && (
              <p className="max-w-56 text-xs text-slate-600">“{row.original.reject_reason}”</p>
            )}
          </div>
        ),
      },
      offerPriceColumn(),
      dateTimeColumn('expires_at', 'Expires', 'Never'),
      dateTimeColumn('created_at', 'Offered'),
      actionsColumn((offer) => (
        <OfferActions
          offer={offer}
          canAdminister={canAdminister}
          campaignName={campaignNames.get(offer.campaign_id)}
          podcastName={podcastNames.get(offer.podcast_id)}
        />
      )),
    ],
    [campaignNames, podcastNames, networkId, canAdminister],
  );

  return (
    <>
      <ListPage
        title="Offers"
        exportCsv={{ path: `/networks/${networkId}/offers`, params: { status, campaign_id: campaignId, podcast_id: podcastId, ...made } }}
        description="A campaign offered to an opted-in podcast at a price. Accepting an offer starts generating the host-voiced creative; rejecting it records your reason."
        create={canAdminister ? { label: 'New offer', onClick: () => setCreating(true) } : undefined}
        filters={filters}
        toolbar={
          <>
            <ListFilter filters={filters} name="status" label="Status" placeholder="All statuses" options={optionsOf(offerStatusSchema.options)} />
            <ListFilter
              filters={filters}
              name="campaign"
              label="Campaign"
              placeholder="All campaigns"
              options={namedOptions(campaigns.data?.items)}
              wide
            />
            <ListFilter
              filters={filters}
              name="podcast"
              label="Podcast"
              placeholder="All podcasts"
              options={namedOptions(podcasts.data?.items)}
              wide
            />
            <ListDateRange filters={filters} label="Offered" />
          </>
        }
        list={list}
        columns={columns}
        onRowClick={(offer) => opened.open(offer.id)}
        selectedRowId={opened.id ?? undefined}
        selection={
          canAdminister
            ? {
                canSelect: decidable,
                nameOf: offerName,
                actions: (selected, clear) => (
                  <BulkOfferActions
                    count={selected.length}
                    onAccept={() => {
                      bulk.start({
                        title: 'Accept offers',
                        done: 'accepted',
                        items: selected.map((o) => ({
                          id: o.id,
                          name: offerName(o),
                          perform: () => accept.mutateAsync({ networkId, offerId: o.id }),
                        })),
                      });
                      clear();
                    }}
                    onReject={(reason) => {
                      bulk.start({
                        title: 'Reject offers',
                        done: 'rejected',
                        items: selected.map((o) => ({
                          id: o.id,
                          name: offerName(o),
                          perform: () => reject.mutateAsync({ networkId, offerId: o.id, ...(reason ? { reason } : {}) }),
                        })),
                      });
                      clear();
                    }}
                  />
                ),
              }
            : undefined
        }
        empty={{
          icon: <Handshake className="size-6" />,
          title: 'No offers yet',
          description: 'Offer a draft or active campaign to an opted-in podcast.',
        }}
      />
      <OfferSheet
        offerId={opened.id}
        onClose={opened.close}
        canAdminister={canAdminister}
        campaignNames={campaignNames}
        podcastNames={podcastNames}
      />
      {bulk.dialog}
      <CreateOfferDialog open={creating} onOpenChange={setCreating} defaultCampaignId={campaignId} defaultPodcastId={podcastId} />
    </>
  );
}

function CreateOfferDialog({
  open,
  onOpenChange,
  defaultCampaignId,
  defaultPodcastId,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  defaultCampaignId?: string;
  defaultPodcastId?: string;
}) {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const queryClient = useQueryClient();
  const campaigns = useCampaigns(networkId);
  const podcasts = usePodcasts(networkId);
  const create = useMutation(
    trpc.offers.create.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.offers.pathKey() }) }),
  );
  const offerable = (campaigns.data?.items ?? []).filter((c) => c.status === 'draft' || c.status === 'active');
  const optedIn = (podcasts.data?.items ?? []).filter((p) => p.opt_in_status === 'opted_in');
  const defaults = {
    campaign_id: defaultCampaignId ?? '',
    flight_id: '',
    podcast_id: defaultPodcastId ?? '',
    price_cents: '',
    currency: 'USD',
    amount_cents: '',
    impression_goal: '',
    expires_at: '',
  };
  const { form, close, dialogProps } = useFormResetOnClose(createSchema, defaults, { open, onOpenChange });
  // The chosen campaign's flights: an offer on one carries its terms (and is priced by it).
  const chosenCampaign = form.watch('campaign_id');
  const flights = useQuery(
    trpc.flights.list.queryOptions({ networkId, campaignId: chosenCampaign ?? '', limit: 200 }, { enabled: open && Boolean(chosenCampaign) }),
  );
  const bookable = (flights.data?.items ?? []).filter((f) => f.status !== 'ended');
  const flight = bookable.find((f) => f.id === form.watch('flight_id'));
  return (
    <FormDialog
      {...dialogProps}
      title="New offer"
      description="Offer a campaign, or one of its flights, to a podcast. Only draft or active campaigns and opted-in podcasts can be chosen."
      submitLabel="Make offer"
      onSubmit={async (values) => {
        // On a flight the price is the flight's: what the form holds for a priced offer is left out, and the other way round.
        // (A flight left chosen from another campaign is no flight.)
        const { price_cents, currency, amount_cents, impression_goal, flight_id: _chosen, ...offer } = values;
        await create.mutateAsync({
          ...offer,
          ...(flight ? { flight_id: flight.id, amount_cents, impression_goal } : { price_cents, currency }),
          networkId,
        });
        toast.success('Offer made: accept or reject it from the list.');
        close();
      }}
    >
      <FormField
        form={form}
        name="campaign_id"
        label="Campaign"
        description={!campaigns.isPending && offerable.length === 0 ? 'No draft or active campaigns: create or activate one first.' : undefined}
      >
        {(field) => (
          <Select
            placeholder={campaigns.isPending ? 'Loading campaigns…' : 'Choose a campaign'}
            options={offerable.map((c) => ({ value: c.id, label: `${c.name} (${c.status})` }))}
            {...field}
          />
        )}
      </FormField>
      <FormField
        form={form}
        name="podcast_id"
        label="Podcast"
        description={
          !podcasts.isPending && optedIn.length === 0
            ? 'No opted-in podcasts: opt one in on the Podcasts page first.'
            : 'Only opted-in podcasts can receive offers.'
        }
      >
        {(field) => (
          <Select
            placeholder={podcasts.isPending ? 'Loading podcasts…' : 'Choose a podcast'}
            options={optedIn.map((p) => ({ value: p.id, label: `${p.name} — ${p.host_name}` }))}
            {...field}
          />
        )}
      </FormField>
      <FormField
        form={form}
        name="flight_id"
        label="Flight"
        description={
          flight
            ? `${formatPricing(flight.pricing, flight.impression_goal)}: the podcast decides on the flight’s terms.`
            : 'Optional. An offer on a flight carries its dates, placement, length and price.'
        }
      >
        {(field) => (
          <Select
            placeholder={!chosenCampaign ? 'Choose a campaign first' : flights.isPending ? 'Loading flights…' : 'No flight: price the offer here'}
            options={namedOptions(bookable)}
            disabled={!chosenCampaign}
            {...field}
          />
        )}
      </FormField>
      {flight ? (
        <OfferShareFields form={form as unknown as OfferShareForm} flight={flight} who="this podcast" />
      ) : (
        <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
          <FormField
            form={form}
            name="price_cents"
            label="Price"
            registerOptions={{ valueAsNumber: true }}
            description="Optional. In whole units, e.g. 250."
          >
            {(field) => <AmountInput {...field} />}
          </FormField>
          <FormField form={form} name="currency" label="Currency" description="ISO code.">
            {(field) => <CurrencyInput {...field} />}
          </FormField>
        </div>
      )}
      <FormField
        form={form}
        name="expires_at"
        label="Expires"
        description="Optional. After this time (your local time) the offer can no longer be accepted."
      >
        {(field) => <Input type="datetime-local" {...field} />}
      </FormField>
    </FormDialog>
  );
}
