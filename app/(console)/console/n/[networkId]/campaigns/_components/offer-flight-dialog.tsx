'use client';

import { useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import type { BrandSafetyRule } from '@/domain/brand-safety';
import type { Campaign } from '@/server/routers/campaigns/campaign.types';
import { createFlightOffersInput, MAX_PODCASTS_PER_BULK_OFFER } from '@/server/routers/offers/create-flight-offers.types';
import type { Flight } from '@/server/routers/flights/flight.types';
import { doneWithLink, type BulkItem, type BulkRunSpec } from '@/app/(console)/_components/bulk-run';
import { DialogForm } from '@/app/(console)/_components/form-dialog';
import { Badge } from '@/app/(console)/_components/ui/badge';
import { Button } from '@/app/(console)/_components/ui/button';
import { Checkbox } from '@/app/(console)/_components/ui/checkbox';
import { Dialog, DialogContent } from '@/app/(console)/_components/ui/dialog';
import { FormField, useZodForm } from '@/app/(console)/_components/ui/form';
import { Input } from '@/app/(console)/_components/ui/input';
import { IntentLink } from '@/app/(console)/_components/ui/intent-link';
import { LoadingBlock } from '@/app/(console)/_components/ui/skeleton';
import { ErrorState } from '@/app/(console)/_components/ui/states';
import { formatTerms } from '@/app/(console)/_lib/ads';
import { cn } from '@/app/(console)/_lib/cn';
import { formatDateTime } from '@/app/(console)/_lib/dates';
import { centsFromUnits, localDateTime, optionalNumber } from '@/app/(console)/_lib/form-values';
import { networkPath, useNetworkId } from '@/app/(console)/_lib/network';
import { byCursor, pagedList } from '@/app/(console)/_lib/paged-list';
import { ProblemError } from '@/app/(console)/_lib/problem';
import { useTRPC, type RouterInputs, type RouterOutputs } from '@/app/(console)/_lib/trpc';
import { OfferShareFields, type OfferShareForm } from '@/app/(console)/console/n/[networkId]/offers/_components/offer-share-fields';

type Eligibility = RouterOutputs['flights']['eligiblePodcasts']['items'][number];

const shape = createFlightOffersInput.shape;
/** What all the offers of one sending share, beside the flight's terms: each optional. */
const sharedTermsSchema = createFlightOffersInput.omit({ networkId: true, flightId: true, podcast_ids: true }).extend({
  amount_cents: centsFromUnits(shape.amount_cents),
  impression_goal: optionalNumber(shape.impression_goal),
  expires_at: localDateTime(shape.expires_at),
});

type SharedTerms = Omit<RouterInputs['offers']['createOnFlight'], 'networkId' | 'flightId' | 'podcast_ids'>;

const RULES: Record<BrandSafetyRule, string> = {
  excluded_category: 'Excluded category',
  blocked_advertiser: 'Blocked advertiser',
  competitive_separation: 'Competitive separation',
};

/** Offers on a flight that stand: a podcast holding one is not chosen again by default. */
const STANDING = new Set(['open', 'accepted']);

/**
 * A flight offered to many podcasts at once (POST …/flights/{flightId}/offers): every opted-in
 * podcast with its eligibility and the brand-safety reasons against it — the eligible ones chosen,
 * the others marked and left out unless chosen — then the offers' shared terms. What each podcast
 * answered is shown by the page's bulk results (`onSent`), each offer linked.
 */
export function OfferFlightDialog({
  flight,
  campaign,
  onClose,
  onSent,
}: {
  flight: Flight;
  campaign: Campaign;
  onClose: () => void;
  onSent: (spec: BulkRunSpec, settled: PromiseSettledResult<unknown>[]) => void;
}) {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const listId = useId();
  const eligibility = pagedList(
    useInfiniteQuery(trpc.flights.eligiblePodcasts.infiniteQueryOptions({ networkId, flightId: flight.id, limit: 200 }, byCursor)),
  );
  const prior = useQuery(trpc.offers.list.queryOptions({ networkId, flight_id: flight.id, limit: 200 }));
  const offered = useMemo(() => {
    const byPodcast = new Map<string, string>();
    for (const offer of prior.data?.items ?? [])
      if (STANDING.has(offer.status) || !byPodcast.has(offer.podcast_id)) byPodcast.set(offer.podcast_id, offer.status);
    return byPodcast;
  }, [prior.data]);
  const create = useMutation(trpc.offers.createOnFlight.mutationOptions());
  const form = useZodForm(sharedTermsSchema, { defaultValues: { amount_cents: '', impression_goal: '', expires_at: '' } });

  // Shown once both are read: which podcasts are chosen at first depends on the offers already made.
  const rows = prior.isPending ? undefined : eligibility.rows;
  const chosenByDefault = (row: Eligibility) => row.eligible && !STANDING.has(offered.get(row.podcast.id) ?? '');
  // Until someone ticks a box, the eligible podcasts not yet offered the flight are chosen (also those "Load more" brings).
  const [picked, setPicked] = useState<ReadonlySet<string> | null>(null);
  const chosen = picked ?? new Set((rows ?? []).filter(chosenByDefault).map((row) => row.podcast.id));
  const toggle = (id: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(id);
    else next.delete(id);
    setPicked(next);
  };
  const [filter, setFilter] = useState('');
  const shown = (rows ?? []).filter((row) => row.podcast.name.toLowerCase().includes(filter.trim().toLowerCase()));
  const ineligible = (rows ?? []).filter((row) => !row.eligible).length;
  const offerable = campaign.status === 'draft' || campaign.status === 'active';

  /**
   * One request per 200 podcasts; each podcast's answer, in the order given. The first request's
   * refusal of the whole (a 400 on a shared term, a 409 ended flight) is thrown, for the form; a later
   * one's is each of its podcasts' answer, since the earlier offers are made.
   */
  async function send(podcastIds: string[], terms: SharedTerms): Promise<PromiseSettledResult<unknown>[]> {
    const answers = new Map<string, RouterOutputs['offers']['createOnFlight']['items'][number]>();
    const refusals = new Map<string, unknown>();
    for (let at = 0; at < podcastIds.length; at += MAX_PODCASTS_PER_BULK_OFFER) {
      const chunk = podcastIds.slice(at, at + MAX_PODCASTS_PER_BULK_OFFER);
      try {
        const answer = await create.mutateAsync({ ...terms, networkId, flightId: flight.id, podcast_ids: chunk });
        for (const item of answer.items) answers.set(item.podcast_id, item);
      } catch (error) {
        if (at === 0) throw error;
        for (const id of chunk) refusals.set(id, error);
      }
    }
    return podcastIds.map((id): PromiseSettledResult<unknown> => {
      const item = answers.get(id);
      if (refusals.has(id)) return { status: 'rejected', reason: refusals.get(id) };
      if (!item) return { status: 'rejected', reason: new Error('The API did not answer for this podcast.') };
      if ('offer' in item)
        return {
          status: 'fulfilled',
          value: doneWithLink(networkPath(networkId, `offers?offer=${encodeURIComponent(item.offer.id)}`), 'View offer'),
        };
      return { status: 'rejected', reason: new ProblemError(item.error) };
    });
  }

  const count = chosen.size;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        title={`Offer “${flight.name}” to podcasts`}
        description={`${formatTerms(flight)}; ${formatDateTime(flight.starts_at)} → ${formatDateTime(flight.ends_at)}. Each podcast is offered these terms and decides on them.`}
        className="max-w-2xl"
        // The dialog itself takes the focus, not its first field (at the foot, under the podcasts, while they load).
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          (event.currentTarget as HTMLElement).focus();
        }}
      >
        <DialogForm
          form={form}
          submitLabel={count === 0 ? 'Send offers' : `Send ${count} ${count === 1 ? 'offer' : 'offers'}`}
          onCancel={onClose}
          onSubmit={async (terms) => {
            const selected = (rows ?? []).filter((row) => chosen.has(row.podcast.id));
            if (selected.length === 0) throw new Error('Choose at least one podcast to offer the flight to.');
            const items: BulkItem[] = selected.map((row) => ({ id: row.podcast.id, name: row.podcast.name }));
            const settled = await send(
              items.map((item) => item.id),
              terms,
            );
            onSent(
              {
                title: `Offers of “${flight.name}”`,
                description: 'Each podcast and what the API answered for it: an offer made, or why not.',
                done: 'offered',
                items,
                batch: (again) =>
                  send(
                    again.map((item) => item.id),
                    terms,
                  ),
              },
              settled,
            );
          }}
        >
          {!offerable && (
            <p role="note" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800">
              Only draft or active campaigns can be offered, and this one is {campaign.status}: the API will refuse these offers until it is active
              again.
            </p>
          )}
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium text-slate-800">Podcasts</legend>
            <p className="text-xs text-slate-600">
              Every opted-in podcast, checked against its brand-safety rules for this flight now (they are checked again when an offer is made and
              accepted). Eligible ones not yet offered this flight are chosen; the others are marked with the reason.
            </p>
            {eligibility.error || prior.error ? (
              <ErrorState
                error={eligibility.error ?? prior.error}
                onRetry={() => (eligibility.error ? eligibility.refetch() : void prior.refetch())}
              />
            ) : !rows ? (
              <LoadingBlock label="Loading the podcasts…" />
            ) : rows.length === 0 ? (
              <p className="rounded-md border border-slate-200 px-3 py-4 text-sm text-slate-600">
                No podcast has opted in yet: opt podcasts in on the{' '}
                <IntentLink href={networkPath(networkId, 'podcasts')} className="text-indigo-700 underline underline-offset-4">
                  Podcasts
                </IntentLink>{' '}
                page, then offer the flight.
              </p>
            ) : (
              <>
                <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
                  <p className="text-sm text-slate-700" aria-live="polite" data-testid="offer-selection">
                    {count} of {rows.length} chosen{ineligible > 0 && ` · ${ineligible} not eligible`}
                  </p>
                  <div className="flex gap-1">
                    <Button
                      type="button"
                      variant="ghost"
                      size="sm"
                      onClick={() => setPicked(new Set(rows.filter(chosenByDefault).map((r) => r.podcast.id)))}
                    >
                      Choose eligible
                    </Button>
                    <Button type="button" variant="ghost" size="sm" onClick={() => setPicked(new Set())}>
                      Choose none
                    </Button>
                  </div>
                  {rows.length > 8 && (
                    <Input
                      type="search"
                      aria-label="Filter podcasts by name"
                      placeholder="Filter by name"
                      className="sm:ml-auto sm:w-48"
                      value={filter}
                      onChange={(e) => setFilter(e.target.value)}
                      onKeyDown={(e) => e.key === 'Enter' && e.preventDefault()}
                    />
                  )}
                </div>
                {/* A long list scrolls in its own box, so the terms below stay in reach; a short one is whole. `relative`
                    keeps the checkboxes' hidden form inputs (absolutely placed) inside that box. */}
                <ul
                  aria-label="Podcasts to offer"
                  className={cn(
                    'relative divide-y divide-slate-100 rounded-md border border-slate-200',
                    rows.length > 8 && 'max-h-[50dvh] overflow-y-auto',
                  )}
                >
                  {shown.map((row) => (
                    <PodcastChoice
                      key={row.podcast.id}
                      row={row}
                      boxId={`${listId}-${row.podcast.id}`}
                      offered={offered.get(row.podcast.id)}
                      checked={chosen.has(row.podcast.id)}
                      onChange={(on) => toggle(row.podcast.id, on)}
                    />
                  ))}
                </ul>
                {eligibility.hasMore && (
                  <Button type="button" variant="secondary" size="sm" onClick={eligibility.loadMore} loading={eligibility.loadingMore}>
                    Load more podcasts
                  </Button>
                )}
              </>
            )}
          </fieldset>
          <fieldset className="space-y-4 rounded-md border border-slate-200 p-4">
            <legend className="px-1 text-sm font-medium text-slate-800">For these offers (optional)</legend>
            <OfferShareFields form={form as unknown as OfferShareForm} flight={flight} who="each podcast" />
            <FormField
              form={form}
              name="expires_at"
              label="Offers expire"
              description="Your local time. After it, the offers can no longer be accepted."
            >
              {(field) => <Input type="datetime-local" {...field} />}
            </FormField>
          </fieldset>
        </DialogForm>
      </DialogContent>
    </Dialog>
  );
}

function PodcastChoice({
  row,
  boxId,
  offered,
  checked,
  onChange,
}: {
  row: Eligibility;
  boxId: string;
  offered: string | undefined;
  checked: boolean;
  onChange: (on: boolean) => void;
}) {
  const { podcast, eligible, reasons } = row;
  return (
    <li className="flex items-start gap-3 px-3 py-2.5">
      <Checkbox
        id={boxId}
        className="mt-0.5 size-5"
        checked={checked}
        onCheckedChange={(on) => onChange(on === true)}
        aria-describedby={`${boxId}-about`}
      />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <label htmlFor={boxId} className="font-medium break-words text-slate-900">
            {podcast.name}
          </label>
          {eligible ? <Badge tone="success">Eligible</Badge> : <Badge tone="danger">Not eligible</Badge>}
          {offered && <Badge tone={STANDING.has(offered) ? 'info' : 'neutral'}>Offered before: {offered}</Badge>}
        </div>
        <div id={`${boxId}-about`} className="text-xs text-slate-600">
          <p>
            Host {podcast.host_name} · <span className="capitalize">{podcast.voice}</span> voice
          </p>
          {reasons.length > 0 && (
            <ul className="mt-1 space-y-0.5 text-red-800">
              {reasons.map((reason) => (
                <li key={`${reason.rule}:${reason.detail}`}>
                  <span className="font-medium">{RULES[reason.rule]}:</span> {reason.detail}
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </li>
  );
}
