import { z } from 'zod';
import { networkParam, timestamp } from '@/server/routers/shared.types';

/** Longest range per bucket size (hours: a week; days: 90 days). */
export const STATS_MAX_RANGE_DAYS = { hour: 7, day: 90 } as const;
/** Range when `since` is omitted (hours: the last 24 h; days: the last 14 days). */
export const STATS_DEFAULT_RANGE_MS = { hour: 24 * 3_600_000, day: 14 * 86_400_000 } as const;

export const deliveryStatsInput = z
  .strictObject({
    ...networkParam,
    bucket: z
      .enum(['hour', 'day'], { error: 'bucket must be hour or day.' })
      .default('hour')
      .meta({ description: 'Bucket size (UTC hours or days).' }),
    since: z.iso.datetime({ offset: true, error: 'since must be an ISO 8601 date-time, e.g. 2026-11-21T10:00:00Z.' }).optional().meta({
      description:
        'Start of the range (default: 24 hours ago for hour buckets, 14 days ago for day buckets); at most 7 days back for hours, 90 for days.',
    }),
    webhook_id: z.string().min(1).optional().meta({ description: 'Only this subscription’s deliveries (whk_…).' }),
  })
  .superRefine((v, ctx) => {
    if (!v.since) return;
    const at = Date.parse(v.since);
    if (at > Date.now()) ctx.addIssue({ code: 'custom', path: ['since'], message: 'since must not be in the future.' });
    const max = STATS_MAX_RANGE_DAYS[v.bucket];
    if (at < Date.now() - max * 86_400_000) {
      ctx.addIssue({ code: 'custom', path: ['since'], message: `since must be at most ${max} days ago for ${v.bucket} buckets.` });
    }
  });

export const deliveryStatsBucketSchema = z
  .object({
    start: timestamp.meta({ description: 'Start of the bucket (UTC).' }),
    succeeded: z.number().int().meta({ description: 'Deliveries created in this bucket that succeeded.' }),
    failed: z.number().int().meta({ description: 'Deliveries created in this bucket that failed (every retry used up, or a final 4xx).' }),
    pending: z.number().int().meta({ description: 'Deliveries created in this bucket that are queued or retrying.' }),
    latency_p50_ms: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'Median latency of the attempts started in this bucket; null when none answered.' }),
    latency_p95_ms: z.number().int().nullable().meta({ description: '95th percentile latency of the attempts started in this bucket.' }),
  })
  .meta({ id: 'WebhookDeliveryStatsBucket' });

export const deliveryStatsOutput = z
  .object({
    bucket: z.enum(['hour', 'day']),
    since: timestamp,
    until: timestamp,
    totals: z.object({ succeeded: z.number().int(), failed: z.number().int(), pending: z.number().int() }),
    buckets: z.array(deliveryStatsBucketSchema),
  })
  .meta({ id: 'WebhookDeliveryStats' });
