'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Campaign } from '@/server/routers/campaigns/campaign.types';
import { createFlightInput } from '@/server/routers/flights/create-flight.types';
import { MAX_DURATION_SECONDS, placementSchema, pricingField, pricingModelSchema, type Flight } from '@/server/routers/flights/flight.types';
import { EditFormDialog, FormDialog, useFormResetOnClose } from '@/app/(console)/_components/form-dialog';
import { FormField, useZodForm } from '@/app/(console)/_components/ui/form';
import { AmountInput, CurrencyInput, Input } from '@/app/(console)/_components/ui/input';
import { optionsOf, Select } from '@/app/(console)/_components/ui/select';
import { toast } from '@/app/(console)/_components/ui/toaster';
import { formatMoney, formatPricing, isoToLocal, PLACEMENT_LABELS } from '@/app/(console)/_lib/ads';
import { formatDateTime } from '@/app/(console)/_lib/dates';
import { centsFromUnits, localDateTime, optionalNumber } from '@/app/(console)/_lib/form-values';
import { useNetworkId } from '@/app/(console)/_lib/network';
import { useTRPC } from '@/app/(console)/_lib/trpc';

const shape = createFlightInput.shape;

/**
 * The flight's fields as typed: dates in local time, the price in whole units of its currency (sent
 * as cents), empty number boxes as "not given". Create and edit use the same rules (those of the
 * API's create); an edit sends only the fields that changed.
 */
const flightSchema = createFlightInput.omit({ networkId: true, campaignId: true }).extend({
  starts_at: localDateTime(shape.starts_at),
  ends_at: localDateTime(shape.ends_at),
  max_duration_seconds: optionalNumber(shape.max_duration_seconds),
  pricing: pricingField.extend({ amount_cents: centsFromUnits(pricingField.shape.amount_cents) }),
  impression_goal: optionalNumber(shape.impression_goal),
});

type FlightForm = ReturnType<typeof useZodForm<typeof flightSchema>>;

const PLACEMENTS = optionsOf(placementSchema.options, PLACEMENT_LABELS);
const PRICING_MODELS = optionsOf(pricingModelSchema.options, { cpm: 'CPM — per 1,000 impressions', flat: 'Flat fee — one price' });

/** A typed number box's value, or undefined while it is empty or not a number. */
const typedNumber = (value: unknown) => (typeof value === 'number' && !Number.isNaN(value) ? value : undefined);

/** The campaign's dates, which every flight must stay inside. */
function campaignWindow(campaign: Campaign): string | undefined {
  if (!campaign.starts_at && !campaign.ends_at) return undefined;
  if (!campaign.ends_at) return `The campaign starts ${formatDateTime(campaign.starts_at)}.`;
  if (!campaign.starts_at) return `The campaign ends ${formatDateTime(campaign.ends_at)}.`;
  return `The campaign runs ${formatDateTime(campaign.starts_at)} → ${formatDateTime(campaign.ends_at)}.`;
}

function FlightFields({ form, campaign }: { form: FlightForm; campaign: Campaign }) {
  const model = form.watch('pricing.model');
  const amount = typedNumber(form.watch('pricing.amount_cents'));
  const goal = typedNumber(form.watch('impression_goal'));
  const currency = String(form.watch('pricing.currency') ?? '');
  const validCurrency = /^[A-Z]{3}$/.test(currency) ? currency : null;
  const cents = amount === undefined ? undefined : Math.round(amount * 100);
  const during = campaignWindow(campaign);
  // What the price reads as in the list, and what a CPM flight costs at its goal.
  const summary =
    cents === undefined || !validCurrency
      ? undefined
      : formatPricing({ model, amount_cents: cents, currency: validCurrency }, goal) +
        (model === 'cpm' && goal !== undefined ? `: ${formatMoney(Math.round((cents * goal) / 1000), validCurrency)} at the goal.` : '');
  return (
    <>
      <FormField form={form} name="name" label="Name" description="As the insertion order names the line item, e.g. “Pre-roll, December”.">
        {(field) => <Input {...field} />}
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField form={form} name="starts_at" label="Starts" description={`Your local time.${during ? ` ${during}` : ''}`}>
          {(field) => <Input type="datetime-local" {...field} />}
        </FormField>
        <FormField form={form} name="ends_at" label="Ends" description="After the start.">
          {(field) => <Input type="datetime-local" {...field} />}
        </FormField>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField form={form} name="placement" label="Placement" description="Where in the episode the ad runs.">
          {(field) => <Select options={PLACEMENTS} {...field} />}
        </FormField>
        <FormField
          form={form}
          name="max_duration_seconds"
          label="Max length (seconds)"
          registerOptions={{ valueAsNumber: true }}
          description={`The longest ad it takes, ${MAX_DURATION_SECONDS.min}–${MAX_DURATION_SECONDS.max} s.`}
        >
          {(field) => <Input type="number" min={MAX_DURATION_SECONDS.min} max={MAX_DURATION_SECONDS.max} step={1} inputMode="numeric" {...field} />}
        </FormField>
      </div>
      <fieldset className="space-y-4 rounded-md border border-slate-200 p-4">
        <legend className="px-1 text-sm font-medium text-slate-800">Price</legend>
        <div className="grid gap-4 sm:grid-cols-[3fr_2fr_1fr]">
          <FormField form={form} name="pricing.model" label="Pricing">
            {(field) => <Select options={PRICING_MODELS} {...field} />}
          </FormField>
          <FormField
            form={form}
            name="pricing.amount_cents"
            label={model === 'cpm' ? 'CPM' : 'Fee'}
            registerOptions={{ valueAsNumber: true }}
            description={model === 'cpm' ? 'Per 1,000 impressions, e.g. 25.' : 'The whole fee, e.g. 5000.'}
          >
            {(field) => <AmountInput {...field} />}
          </FormField>
          <FormField form={form} name="pricing.currency" label="Currency" description="ISO code.">
            {(field) => <CurrencyInput {...field} />}
          </FormField>
        </div>
        <FormField
          form={form}
          name="impression_goal"
          label="Impression goal"
          registerOptions={{ valueAsNumber: true }}
          description={model === 'cpm' ? 'Required for CPM: the impressions the flight must deliver.' : 'Optional for a flat fee.'}
        >
          {(field) => <Input type="number" min={1} step={1} inputMode="numeric" {...field} />}
        </FormField>
        {summary && (
          <p className="text-sm text-slate-700" aria-live="polite" data-testid="flight-price-summary">
            {summary}
          </p>
        )}
      </fieldset>
      <FormField
        form={form}
        name="external_order_id"
        label="Order number"
        description="Optional. The agency’s or order-management system’s own number for this line item."
      >
        {(field) => <Input {...field} />}
      </FormField>
    </>
  );
}

/** What the form shows for a flight (an edit starts from it; a new flight from the campaign's dates). */
function flightDefaults(from: Flight | Campaign) {
  const flight = 'pricing' in from ? from : undefined;
  return {
    name: flight?.name ?? '',
    starts_at: isoToLocal(from.starts_at),
    ends_at: isoToLocal(from.ends_at),
    placement: flight?.placement ?? ('pre' as const),
    max_duration_seconds: flight?.max_duration_seconds ?? MAX_DURATION_SECONDS.default,
    pricing: {
      model: flight?.pricing.model ?? ('cpm' as const),
      amount_cents: flight ? flight.pricing.amount_cents / 100 : '',
      currency: flight?.pricing.currency ?? (from as Campaign).currency ?? 'USD',
    },
    impression_goal: flight?.impression_goal ?? '',
    external_order_id: flight?.external_order_id ?? '',
  };
}

function useInvalidateFlights() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.flights.pathKey() });
}

export function CreateFlightDialog({ campaign, open, onOpenChange }: { campaign: Campaign; open: boolean; onOpenChange: (open: boolean) => void }) {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const invalidate = useInvalidateFlights();
  const create = useMutation(trpc.flights.create.mutationOptions({ onSuccess: invalidate }));
  const { form, close, dialogProps } = useFormResetOnClose(flightSchema, flightDefaults(campaign), { open, onOpenChange });
  return (
    <FormDialog
      {...dialogProps}
      title="New flight"
      description="A flight is one line of the insertion order: dates, placement, length and price. Podcasts are offered a flight’s terms."
      className="max-w-2xl"
      submitLabel="Create flight"
      onSubmit={async (values) => {
        const created = await create.mutateAsync({ ...values, networkId, campaignId: campaign.id });
        toast.success(`Flight “${created.name}” created.`);
        close();
      }}
    >
      <FlightFields form={form} campaign={campaign} />
    </FormDialog>
  );
}

export function EditFlightDialog({ flight, campaign, onClose }: { flight: Flight; campaign: Campaign; onClose: () => void }) {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const invalidate = useInvalidateFlights();
  // Settled either way: after a conflict the list shows the latest version, so editing again starts from it.
  const update = useMutation(trpc.flights.update.mutationOptions({ onSettled: invalidate }));
  const form = useZodForm(flightSchema, { defaultValues: flightDefaults(flight) });
  // An accepted offer's terms are the contract: the API then takes only a new name or order number.
  const accepted = useQuery(trpc.offers.list.queryOptions({ networkId, flight_id: flight.id, status: 'accepted', limit: 1 }));
  return (
    <EditFormDialog
      name={flight.name}
      onClose={onClose}
      description="Only what you change is sent. If someone else changes this flight meanwhile, saving tells you instead of overwriting their change."
      className="max-w-2xl"
      form={form}
      onSubmit={async (values) => {
        const dirty = form.formState.dirtyFields;
        const changed = (key: keyof typeof dirty) => Boolean(dirty[key]);
        await update.mutateAsync({
          networkId,
          flightId: flight.id,
          version: flight.version,
          name: changed('name') ? values.name : undefined,
          starts_at: changed('starts_at') ? values.starts_at : undefined,
          ends_at: changed('ends_at') ? values.ends_at : undefined,
          placement: changed('placement') ? values.placement : undefined,
          max_duration_seconds: changed('max_duration_seconds') ? values.max_duration_seconds : undefined,
          // The price is sent whole: model, amount and currency belong together.
          pricing: changed('pricing') ? values.pricing : undefined,
          // An emptied box clears the value.
          impression_goal: changed('impression_goal') ? (values.impression_goal ?? null) : undefined,
          external_order_id: changed('external_order_id') ? (values.external_order_id ?? null) : undefined,
        });
        toast.success('Flight saved.');
        onClose();
      }}
    >
      {accepted.data?.items.length ? (
        <p role="note" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800">
          A podcast has accepted an offer on this flight: its dates, placement, length and price are that offer’s contract and can no longer change.
          Its name and order number can.
        </p>
      ) : null}
      <FlightFields form={form} campaign={campaign} />
    </EditFormDialog>
  );
}
