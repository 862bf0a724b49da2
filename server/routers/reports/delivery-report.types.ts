import { z } from 'zod';
import { DELIVERY_COUNT_LABELS } from '@/domain/measurement';
import { listParams, pageOf } from '@/server/http/page';
import { pacingSchema } from '@/server/routers/flights/flight.types';
import { dayField } from '@/server/routers/offer-delivery/offer-delivery.types';
import { networkParam } from '@/server/routers/shared.types';

/** What a delivery report's rows are: one per UTC day, or one per flight, podcast or campaign. */
export const DELIVERY_REPORT_GROUPINGS = ['day', 'flight', 'podcast', 'campaign'] as const;
export type DeliveryReportGrouping = (typeof DELIVERY_REPORT_GROUPINGS)[number];

/** The most days one report covers (a leap year). */
export const MAX_REPORT_DAYS = 366;

/** The days a report covers when it is given no `from`: these many, ending with `to`. */
export const DEFAULT_REPORT_DAYS = 30;

export const deliveryReportGroupingSchema = z
  .enum(DELIVERY_REPORT_GROUPINGS, { error: 'group_by must be day, flight, podcast or campaign.' })
  .meta({ id: 'DeliveryReportGrouping', description: 'One row per UTC day (every day of the range), or per flight, podcast or campaign.' });

const idFilter = (name: string, what: string) =>
  z
    .string({ error: `${name} must be a string.` })
    .min(1, `${name} must not be empty.`)
    .meta({ description: `Only the delivery of ${what}; an id that is not one of the network’s → 404.` })
    .optional();

export const deliveryReportInput = z.strictObject({
  ...networkParam,
  ...listParams,
  from: dayField.meta({ description: `The first UTC day, inclusive; default: ${DEFAULT_REPORT_DAYS - 1} days before \`to\`.` }).optional(),
  to: dayField.meta({ description: 'The last UTC day, inclusive; default: today (UTC).' }).optional(),
  group_by: deliveryReportGroupingSchema.default('day'),
  flight_id: idFilter('flight_id', 'this flight’s offers'),
  campaign_id: idFilter('campaign_id', 'this campaign’s offers'),
  podcast_id: idFilter('podcast_id', 'the offers to this podcast'),
});

export const deliveryReportRowSchema = z
  .object({
    key: z.string().meta({
      description: 'The UTC day (`2026-11-28`) for group_by=day, else the id of the flight (flt_…), podcast (pod_…) or campaign (cmp_…).',
      example: '2026-11-28',
    }),
    name: z.string().nullable().meta({ description: 'The flight’s, podcast’s or campaign’s name; null for a day.' }),
    tracked_impressions: z
      .number()
      .int()
      .meta({ description: `${DELIVERY_COUNT_LABELS.tracked} The sum over the row’s offers and the days of the range.` }),
    reported_impressions: z
      .number()
      .int()
      .nullable()
      .meta({
        description: `${DELIVERY_COUNT_LABELS.reported} The sum over the row’s offers, sources and the days of the range; null when nothing was reported for them in the range.`,
      }),
    goal: z
      .number()
      .int()
      .nullable()
      .meta({
        description:
          'A flight’s impression goal; for a campaign, the sum of its flights’ goals (null when none has one); null for a podcast or a day. ' +
          'Always the whole goal, whatever the range and filters.',
      }),
    pacing: pacingSchema.nullable().meta({
      description:
        'For a flight with a goal: its pacing over its whole life so far — NOT limited to `from`/`to` (docs/measurement.md, "Pacing"). Null otherwise.',
    }),
  })
  .meta({ id: 'DeliveryReportRow' });

export type DeliveryReportRowOut = z.infer<typeof deliveryReportRowSchema>;

export const deliveryReportOutput = pageOf(deliveryReportRowSchema)
  .extend({
    from: dayField.meta({ description: 'The first UTC day the report covers.' }),
    to: dayField.meta({ description: 'The last UTC day the report covers.' }),
    group_by: deliveryReportGroupingSchema,
  })
  .meta({ id: 'DeliveryReportList' });
