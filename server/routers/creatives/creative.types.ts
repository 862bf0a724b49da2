import { z } from 'zod';
import { CREATIVE_STATUSES } from '../../../db/schema/statuses';
import { audioUrl } from '../../services/creatives/audio-url';
import type { CreativeRow } from '../../services/creatives/complete-creative';
import { listParams, pageOf } from '../../http/page';
import { iso, isoOrNull, networkParam, timestamp } from '../shared.types';

export const creativeStatusSchema = z.enum(CREATIVE_STATUSES);

export const creativeSchema = z
  .object({
    id: z.string(),
    network_id: z.string(),
    offer_id: z.string(),
    campaign_id: z.string(),
    podcast_id: z.string(),
    status: creativeStatusSchema.meta({ description: 'generating → ready | failed (retry: failed → generating)' }),
    script: z.string().meta({ description: 'What the host voice reads.' }),
    voice: z.string(),
    mime_type: z.string().nullable(),
    duration_ms: z.number().int().nullable(),
    size_bytes: z.number().int().nullable(),
    audio_url: z.string().nullable().meta({ description: 'Where to GET the audio once ready (same Authorization).' }),
    failure_reason: z.string().nullable(),
    attempts: z.number().int(),
    ready_at: timestamp.nullable(),
    version: z.number().int(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Creative' });

export function presentCreative(row: CreativeRow): z.infer<typeof creativeSchema> {
  return {
    id: row.id,
    network_id: row.networkId,
    offer_id: row.offerId,
    campaign_id: row.campaignId,
    podcast_id: row.podcastId,
    status: row.status,
    script: row.script,
    voice: row.voice,
    mime_type: row.mimeType,
    duration_ms: row.durationMs,
    size_bytes: row.sizeBytes,
    audio_url: row.status === 'ready' ? audioUrl(row) : null,
    failure_reason: row.failureReason,
    attempts: row.attempts,
    ready_at: isoOrNull(row.readyAt),
    version: row.version,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

export const creativeIdParam = { creativeId: z.string().min(1).meta({ description: 'Creative id (crv_…).' }) };
export const creativeInput = z.strictObject({ ...networkParam, ...creativeIdParam });
export const listCreativesInput = z.strictObject({
  ...networkParam,
  ...listParams,
  status: creativeStatusSchema.optional(),
  offer_id: z.string().min(1).optional(),
});
export const creativeListSchema = pageOf(creativeSchema).meta({ id: 'CreativeList' });
