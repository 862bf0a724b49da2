import { z } from 'zod';
import { DELIVERY_COUNT_LABELS, DELIVERY_SOURCE_PATTERN } from '@/domain/measurement';
import { idField, timestamp } from '@/server/routers/shared.types';

/** A UTC calendar day, `2026-11-28`. */
export const dayField = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date, YYYY-MM-DD (a UTC day).')
  .refine(
    (day) => !Number.isNaN(Date.parse(`${day}T00:00:00Z`)) && new Date(`${day}T00:00:00Z`).toISOString().startsWith(day),
    'must be a real date.',
  )
  // Postgres's calendar has no year 0: 0000-12-31 would reach the database and fail there.
  .refine((day) => day >= '0001-01-01', 'must be 0001-01-01 or later.')
  .meta({ example: '2026-11-28' });

export const deliverySourceField = z
  .string()
  .regex(DELIVERY_SOURCE_PATTERN, 'must be a short lower-case name: letters, digits, . _ - (megaphone, acast, host-export).')
  .meta({ description: 'Who counted: the host’s ad server or export (`megaphone`, `acast`, `host-export`).', example: 'megaphone' });

export const reportedImpressionsField = z
  .number()
  .int()
  .min(0)
  .max(1_000_000_000_000)
  .meta({ description: 'Impressions the source counted for the offer on that day.', example: 1_250 });

/** One day's count from one source: what a report sends, and what is kept of it. */
export const deliveryReportSchema = z
  .object({
    date: dayField,
    source: deliverySourceField,
    impressions: reportedImpressionsField,
    reported_at: timestamp.meta({ description: 'When the report in force for this day and source was sent.' }),
  })
  .meta({ id: 'DeliveryReport' });

export const offerDeliveryDaySchema = z
  .object({
    date: dayField,
    tracked: z
      .object({
        impressions: z.number().int().meta({ description: 'Impressions by the counting rules of docs/measurement.md.' }),
        hits: z.number().int().meta({ description: 'Every call of the tracking URL that day, counted or not.' }),
        bots: z.number().int().meta({ description: 'Calls from known bots and crawlers (not counted).' }),
        duplicates: z.number().int().meta({ description: 'Repeats of an impression within 24 hours (not counted).' }),
        abnormal: z.number().int().meta({ description: 'Calls from a source flagged for abnormally many hits that day (not counted).' }),
      })
      .meta({ id: 'TrackedDelivery', description: DELIVERY_COUNT_LABELS.tracked }),
    reported: z
      .object({
        impressions: z.number().int().nullable().meta({ description: 'The sum over sources; null when no source reported the day.' }),
        sources: z.array(deliveryReportSchema.omit({ date: true })).meta({ description: 'Each source’s report in force, by source name.' }),
      })
      .meta({ id: 'ReportedDelivery', description: DELIVERY_COUNT_LABELS.reported }),
  })
  .meta({ id: 'OfferDeliveryDay' });

export const offerDeliverySchema = z
  .object({
    offer_id: idField('off'),
    from: dayField,
    to: dayField,
    totals: z.object({
      tracked_impressions: z.number().int().meta({ description: DELIVERY_COUNT_LABELS.tracked }),
      reported_impressions: z
        .number()
        .int()
        .nullable()
        .meta({ description: `${DELIVERY_COUNT_LABELS.reported} Null when no day was reported.` }),
    }),
    days: z.array(offerDeliveryDaySchema).meta({ description: 'Every UTC day from `from` to `to`, oldest first, with both counts.' }),
  })
  .meta({ id: 'OfferDelivery' });
