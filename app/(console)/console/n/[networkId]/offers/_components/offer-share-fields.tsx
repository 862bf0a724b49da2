'use client';

import type { UseFormReturn } from 'react-hook-form';
import type { Flight } from '@/server/routers/flights/flight.types';
import { FormField } from '@/app/(console)/_components/ui/form';
import { AmountInput, Input } from '@/app/(console)/_components/ui/input';
import { formatImpressions, formatPricing } from '@/app/(console)/_lib/ads';

/** A form with an offer's share of a flight: its own amount (in units) and its part of the goal. */
export type OfferShareForm = UseFormReturn<{ amount_cents?: unknown; impression_goal?: unknown }, unknown, unknown>;

/**
 * What an offer on a flight may say of its own, each optional: an amount in place of the flight's
 * and its share of the flight's impression goal — for one podcast ("New offer") or for each of many
 * (a flight offered to podcasts).
 */
export function OfferShareFields({ form, flight, who }: { form: OfferShareForm; flight: Flight; who: 'this podcast' | 'each podcast' }) {
  const goal = flight.impression_goal;
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <FormField
        form={form}
        name="amount_cents"
        label={`${flight.pricing.model === 'cpm' ? 'CPM' : 'Fee'} for ${who}`}
        registerOptions={{ valueAsNumber: true }}
        description={`Optional. Leave empty for the flight’s ${formatPricing(flight.pricing, null)} (${flight.pricing.currency}).`}
      >
        {(field) => <AmountInput {...field} />}
      </FormField>
      <FormField
        form={form}
        name="impression_goal"
        label={`Impressions for ${who}`}
        registerOptions={{ valueAsNumber: true }}
        description={goal ? `Optional. A share of the flight’s ${formatImpressions(goal)}.` : 'Optional. A share of the flight’s goal.'}
      >
        {(field) => <Input type="number" min={1} step={1} inputMode="numeric" {...field} />}
      </FormField>
    </div>
  );
}
