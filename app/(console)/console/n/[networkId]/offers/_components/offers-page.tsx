'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Handshake, Plus } from 'lucide-react';
import Link from 'next/link';
import { useMemo, useState } from 'react';
import { z } from 'zod';
import type { offerSchema } from '@/server/routers/offers/offer.types';
import { createOfferInput, rejectOfferInput } from '@/server/routers/offers/offers.types';
import { StatusBadge } from '../../../../../_components/ui/badge';
import { Button } from '../../../../../_components/ui/button';
import { ConfirmDialog } from '../../../../../_components/ui/confirm-dialog';
import { DataTable, type DataTableColumn } from '../../../../../_components/ui/data-table';
import { Dialog, DialogContent, DialogFooter } from '../../../../../_components/ui/dialog';
import { Form, FormError, FormField, useZodForm } from '../../../../../_components/ui/form';
import { Input, Textarea } from '../../../../../_components/ui/input';
import { Label } from '../../../../../_components/ui/label';
import { Select } from '../../../../../_components/ui/select';
import { EmptyState, PageHeader } from '../../../../../_components/ui/states';
import { toast } from '../../../../../_components/ui/toaster';
import { formatDateTime, formatMoney, localDateTime, namesById, useCampaigns, usePagedList, usePodcasts } from '../../../../../_lib/ads';
import { networkPath, useCanAdminister, useNetworkId } from '../../../../../_lib/network';
import { useUrlFilters } from '../../../../../_lib/url-filters';
import { problemSentence } from '../../../../../_lib/problem';
import { api } from '../../../../../_lib/trpc';

type Offer = z.infer<typeof offerSchema>;
type OfferStatus = Offer['status'];

const STATUS_OPTIONS: { value: OfferStatus; label: string }[] = [
  { value: 'open', label: 'Open' },
  { value: 'accepted', label: 'Accepted' },
  { value: 'rejected', label: 'Rejected' },
  { value: 'expired', label: 'Expired' },
];

/** The price is typed in whole currency units and sent as minor units (cents). */
const priceInUnits = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (typeof value !== 'number' ? value : Number.isNaN(value) ? undefined : Math.round(value * 100)), schema);

const createSchema = createOfferInput.omit({ networkId: true }).extend({
  price_cents: priceInUnits(createOfferInput.shape.price_cents),
  expires_at: localDateTime(createOfferInput.shape.expires_at),
});
const rejectSchema = rejectOfferInput.omit({ networkId: true, offerId: true });

export function OffersPage() {
  const networkId = useNetworkId();
  const canAdminister = useCanAdminister(networkId);
  const { searchParams, setFilter, clearFilters } = useUrlFilters();
  const statusParam = searchParams.get('status');
  const status = STATUS_OPTIONS.some((o) => o.value === statusParam) ? (statusParam as OfferStatus) : undefined;
  const campaignId = searchParams.get('campaign') || undefined;
  const podcastId = searchParams.get('podcast') || undefined;
  const [creating, setCreating] = useState(false);

  const campaigns = useCampaigns(networkId);
  const podcasts = usePodcasts(networkId);
  const campaignNames = useMemo(() => namesById(campaigns.data?.items), [campaigns.data]);
  const podcastNames = useMemo(() => namesById(podcasts.data?.items), [podcasts.data]);
  const list = usePagedList(api.offers.list, { networkId, limit: 50, status, campaign_id: campaignId, podcast_id: podcastId });

  const columns = useMemo<DataTableColumn<Offer>[]>(
    () => [
      {
        id: 'campaign',
        header: 'Campaign',
        accessorFn: (o) => campaignNames.get(o.campaign_id) ?? o.campaign_id,
        cell: ({ row, getValue }) => (
          <Link href={networkPath(networkId, `campaigns/${row.original.campaign_id}`)} className="font-medium text-indigo-700 underline-offset-4 hover:underline">
            {getValue<string>()}
          </Link>
        ),
      },
      { id: 'podcast', header: 'Podcast', accessorFn: (o) => podcastNames.get(o.podcast_id) ?? o.podcast_id },
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
      {
        id: 'price',
        header: 'Price',
        accessorFn: (o) => o.price_cents ?? -1,
        cell: ({ row }) => <span className="tabular-nums">{formatMoney(row.original.price_cents, row.original.currency)}</span>,
      },
      {
        accessorKey: 'expires_at',
        header: 'Expires',
        cell: ({ row }) => <span className="whitespace-nowrap">{row.original.expires_at ? formatDateTime(row.original.expires_at) : 'Never'}</span>,
      },
      {
        accessorKey: 'created_at',
        header: 'Offered',
        cell: ({ row }) => <span className="whitespace-nowrap">{formatDateTime(row.original.created_at)}</span>,
      },
      {
        id: 'actions',
        header: () => <span className="sr-only">Actions</span>,
        enableSorting: false,
        cell: ({ row }) => <OfferActions offer={row.original} canAdminister={canAdminister} campaignName={campaignNames.get(row.original.campaign_id)} podcastName={podcastNames.get(row.original.podcast_id)} />,
      },
    ],
    [campaignNames, podcastNames, networkId, canAdminister],
  );

  const filtered = Boolean(status || campaignId || podcastId);
  return (
    <>
      <PageHeader
        title="Offers"
        description="A campaign offered to an opted-in podcast at a price. Accepting an offer starts generating the host-voiced creative; rejecting it records your reason."
        actions={
          canAdminister && (
            <Button onClick={() => setCreating(true)}>
              <Plus aria-hidden /> New offer
            </Button>
          )
        }
      />
      <div className="mb-4 grid gap-3 sm:flex sm:flex-wrap sm:items-end">
        <div className="space-y-1.5 sm:w-44">
          <Label htmlFor="offer-status-filter">Status</Label>
          <Select id="offer-status-filter" value={status ?? ''} onChange={(e) => setFilter('status', e.target.value)} placeholder="All statuses" options={STATUS_OPTIONS} />
        </div>
        <div className="space-y-1.5 sm:w-60">
          <Label htmlFor="offer-campaign-filter">Campaign</Label>
          <Select
            id="offer-campaign-filter"
            value={campaignId ?? ''}
            onChange={(e) => setFilter('campaign', e.target.value)}
            placeholder="All campaigns"
            options={(campaigns.data?.items ?? []).map((c) => ({ value: c.id, label: c.name }))}
          />
        </div>
        <div className="space-y-1.5 sm:w-60">
          <Label htmlFor="offer-podcast-filter">Podcast</Label>
          <Select
            id="offer-podcast-filter"
            value={podcastId ?? ''}
            onChange={(e) => setFilter('podcast', e.target.value)}
            placeholder="All podcasts"
            options={(podcasts.data?.items ?? []).map((p) => ({ value: p.id, label: p.name }))}
          />
        </div>
        {filtered && (
          <Button variant="ghost" onClick={clearFilters}>
            Clear filters
          </Button>
        )}
      </div>
      <DataTable
        label="Offers"
        columns={columns}
        rows={list.rows}
        error={list.error}
        onRetry={list.refetch}
        hasMore={list.hasMore}
        onLoadMore={list.loadMore}
        loadingMore={list.loadingMore}
        empty={
          filtered ? (
            <EmptyState title="No offers match these filters" description="Change or clear the filters to see more." />
          ) : (
            <EmptyState
              icon={<Handshake className="size-6" />}
              title="No offers yet"
              description="Offer a draft or active campaign to an opted-in podcast."
              action={canAdminister && <Button onClick={() => setCreating(true)}>New offer</Button>}
            />
          )
        }
      />
      <CreateOfferDialog open={creating} onOpenChange={setCreating} defaultCampaignId={campaignId} defaultPodcastId={podcastId} />
    </>
  );
}

function OfferActions({ offer, canAdminister, campaignName, podcastName }: { offer: Offer; canAdminister: boolean; campaignName?: string; podcastName?: string }) {
  const networkId = useNetworkId();
  const queryClient = useQueryClient();
  const [rejecting, setRejecting] = useState(false);
  const accept = useMutation(
    api.offers.accept.mutationOptions({
      onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: api.offers.pathKey() }), queryClient.invalidateQueries({ queryKey: api.creatives.pathKey() })]),
    }),
  );
  const what = `${campaignName ?? 'this campaign'} on ${podcastName ?? 'this podcast'}`;

  if (offer.status === 'accepted' && offer.creative_id) {
    return (
      <div className="flex justify-end">
        <Button asChild variant="link" size="sm">
          <Link href={`${networkPath(networkId, 'creatives')}?offer=${encodeURIComponent(offer.id)}`}>
            View creative<span className="sr-only"> for {what}</span>
          </Link>
        </Button>
      </div>
    );
  }
  if (offer.status !== 'open' || !canAdminister) return null;
  return (
    <div className="flex justify-end gap-1 whitespace-nowrap">
      <ConfirmDialog
        trigger={
          <Button size="sm" aria-label={`Accept offer of ${what}`} onClick={() => accept.reset()}>
            Accept
          </Button>
        }
        title="Accept this offer?"
        description={`${campaignName ?? 'The campaign'} will be read on ${podcastName ?? 'the podcast'} for ${formatMoney(offer.price_cents, offer.currency)}. Accepting starts generating the creative in the host’s voice; it cannot be undone.`}
        confirmLabel="Accept offer"
        destructive={false}
        error={accept.error ? problemSentence(accept.error, 'accept the offer') : undefined}
        onConfirm={async () => {
          try {
            await accept.mutateAsync({ networkId, offerId: offer.id });
          } catch (error) {
            // The refreshed list may no longer offer this row (decided elsewhere), which closes the
            // dialog with its sentence: say it where it stays.
            toast.error(problemSentence(error, 'accept the offer'));
            throw error;
          }
          toast.success('Offer accepted: the creative is being generated.');
        }}
      />
      <Button variant="secondary" size="sm" aria-label={`Reject offer of ${what}`} onClick={() => setRejecting(true)}>
        Reject
      </Button>
      {rejecting && <RejectOfferDialog offer={offer} what={what} onClose={() => setRejecting(false)} />}
    </div>
  );
}

function RejectOfferDialog({ offer, what, onClose }: { offer: Offer; what: string; onClose: () => void }) {
  const networkId = useNetworkId();
  const queryClient = useQueryClient();
  const reject = useMutation(api.offers.reject.mutationOptions({ onSettled: () => queryClient.invalidateQueries({ queryKey: api.offers.pathKey() }) }));
  const form = useZodForm(rejectSchema, { defaultValues: { reason: '' } });
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent title="Reject this offer?" description={`The offer of ${what} is closed for good; the reason is kept with it and sent in the offer.rejected event.`}>
        <Form
          form={form}
          onSubmit={async (values) => {
            await reject.mutateAsync({ ...values, networkId, offerId: offer.id });
            toast.success('Offer rejected.');
            onClose();
          }}
        >
          <FormField form={form} name="reason" label="Reason" description="Optional, up to 500 characters.">
            {(field) => <Textarea rows={3} {...field} />}
          </FormField>
          <FormError form={form} />
          <DialogFooter>
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" loading={form.formState.isSubmitting}>
              Reject offer
            </Button>
          </DialogFooter>
        </Form>
      </DialogContent>
    </Dialog>
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
  const networkId = useNetworkId();
  const queryClient = useQueryClient();
  const campaigns = useCampaigns(networkId);
  const podcasts = usePodcasts(networkId);
  const create = useMutation(api.offers.create.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: api.offers.pathKey() }) }));
  const offerable = (campaigns.data?.items ?? []).filter((c) => c.status === 'draft' || c.status === 'active');
  const optedIn = (podcasts.data?.items ?? []).filter((p) => p.opt_in_status === 'opted_in');
  const defaults = { campaign_id: defaultCampaignId ?? '', podcast_id: defaultPodcastId ?? '', currency: 'USD', expires_at: '' };
  const form = useZodForm(createSchema, { defaultValues: defaults });
  const close = () => {
    form.reset(defaults);
    onOpenChange(false);
  };
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())}>
      <DialogContent title="New offer" description="Offer a campaign to a podcast. Only draft or active campaigns and opted-in podcasts can be chosen.">
        <Form
          form={form}
          onSubmit={async (values) => {
            await create.mutateAsync({ ...values, networkId });
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
            description={!podcasts.isPending && optedIn.length === 0 ? 'No opted-in podcasts: opt one in on the Podcasts page first.' : 'Only opted-in podcasts can receive offers.'}
          >
            {(field) => (
              <Select
                placeholder={podcasts.isPending ? 'Loading podcasts…' : 'Choose a podcast'}
                options={optedIn.map((p) => ({ value: p.id, label: `${p.name} — ${p.host_name}` }))}
                {...field}
              />
            )}
          </FormField>
          <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
            <FormField form={form} name="price_cents" label="Price" registerOptions={{ valueAsNumber: true }} description="Optional. In whole units, e.g. 250.">
              {(field) => <Input type="number" min={0} step="0.01" inputMode="decimal" {...field} />}
            </FormField>
            <FormField form={form} name="currency" label="Currency" description="ISO code.">
              {(field) => <Input maxLength={3} className="uppercase" {...field} />}
            </FormField>
          </div>
          <FormField form={form} name="expires_at" label="Expires" description="Optional. After this time (your local time) the offer can no longer be accepted.">
            {(field) => <Input type="datetime-local" {...field} />}
          </FormField>
          <FormError form={form} />
          <DialogFooter>
            <Button variant="secondary" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={form.formState.isSubmitting}>
              Make offer
            </Button>
          </DialogFooter>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
