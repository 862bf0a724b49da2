import { z } from 'zod';
import { AUDIO_FORMATS, CREATIVE_STATUSES } from '@/domain/statuses';
import { audioUrl, renditionsOf } from '@/server/services/creatives/audio-url';
import type { CreativeRow } from '@/server/services/creatives/complete-creative';
import { idField, isoOrNull, timestamp, versionedFields, versionedOf } from '@/server/routers/shared.types';

export const creativeStatusSchema = z.enum(CREATIVE_STATUSES);

export const audioFormatSchema = z.enum(AUDIO_FORMATS);

const lufs = z.number().nullable().meta({
  description: 'Integrated loudness (ITU-R BS.1770 / EBU R128, LUFS) measured on the delivered file; null for audio made before mastering.',
});
const dbtp = z
  .number()
  .nullable()
  .meta({ description: 'Maximum true peak (dBTP) measured on the delivered file; null for audio made before mastering.' });

export const creativeFormatSchema = z
  .object({
    format: audioFormatSchema,
    mime_type: z.string(),
    size_bytes: z.number().int(),
    loudness_lufs: lufs,
    true_peak_dbtp: dbtp,
    audio_url: z.string().meta({ description: 'GET this URL (same Authorization) for this rendition.' }),
  })
  .meta({ id: 'CreativeFormat' });

/** Measured values are stored as float4: one decimal is what the meter resolves. */
const tenth = (value: number | null) => (value === null ? null : Math.round(value * 10) / 10);

export const creativeSchema = z
  .object({
    id: idField('crv'),
    network_id: idField('net'),
    offer_id: idField('off'),
    campaign_id: idField('cmp'),
    podcast_id: idField('pod'),
    status: creativeStatusSchema.meta({ description: 'generating → ready | failed (retry: failed → generating)' }),
    script: z.string().meta({ description: 'What the host voice reads.' }),
    voice: z.string(),
    mime_type: z.string().nullable().meta({ description: 'Of the default rendition (audio/mpeg).' }),
    duration_ms: z.number().int().nullable(),
    size_bytes: z.number().int().nullable().meta({ description: 'Of the default rendition.' }),
    sample_rate: z.number().int().nullable().meta({ description: 'Hz, of every rendition (44100); null for audio made before mastering.' }),
    loudness_lufs: lufs.meta({
      description:
        'Integrated loudness (ITU-R BS.1770 / EBU R128, mono) of the default rendition as delivered: −16 ± 1 LUFS. Null for audio made before mastering.',
    }),
    true_peak_dbtp: dbtp.meta({
      description: 'Maximum true peak of the default rendition as delivered: ≤ −1 dBTP. Null for audio made before mastering.',
    }),
    formats: z
      .array(creativeFormatSchema)
      .meta({ description: 'The renditions the audio can be downloaded in, default (MP3) first; empty until ready.' }),
    audio_url: z.string().nullable().meta({
      description: 'Where to GET the audio once ready (same Authorization): MP3 by default; `Accept` or `?format=` picks another rendition.',
    }),
    failure_reason: z.string().nullable(),
    attempts: z.number().int(),
    ready_at: timestamp.nullable(),
    ...versionedFields,
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
    sample_rate: row.sampleRate,
    loudness_lufs: tenth(row.loudnessLufs),
    true_peak_dbtp: tenth(row.truePeakDbtp),
    formats: renditionsOf(row).map((r) => ({
      format: r.format,
      mime_type: r.mimeType,
      size_bytes: r.sizeBytes,
      loudness_lufs: tenth(r.loudnessLufs),
      true_peak_dbtp: tenth(r.truePeakDbtp),
      audio_url: audioUrl(row, r.format),
    })),
    audio_url: row.status === 'ready' ? audioUrl(row) : null,
    failure_reason: row.failureReason,
    attempts: row.attempts,
    ready_at: isoOrNull(row.readyAt),
    ...versionedOf(row),
  };
}

export const creativeIdParam = { creativeId: z.string().min(1).meta({ description: 'Creative id (crv_…).' }) };
