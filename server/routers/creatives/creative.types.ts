import { z } from 'zod';
import { AUDIO_FORMATS, CREATIVE_REVIEWERS, CREATIVE_STATUSES } from '@/domain/statuses';
import { audioUrl, renditionsOf } from '@/server/services/creatives/audio-url';
import type { CreativeRow } from '@/server/services/creatives/complete-creative';
import { idField, isoOrNull, timestamp, versionedFields, versionedOf } from '@/server/routers/shared.types';

export const creativeStatusSchema = z.enum(CREATIVE_STATUSES).meta({
  id: 'CreativeStatus',
  description:
    'awaiting_consent (no consent of the host covers it yet) → generating → pending_approval → approved | changes_requested ' +
    '(revision n + 1 replaces it); failed (retry: → generating). A consent revoked or ended sends generating, pending_approval and ' +
    'approved back to awaiting_consent, its audio deleted. Only approved audio is offered for delivery.',
});

export const creativeReviewerSchema = z
  .enum(CREATIVE_REVIEWERS)
  .meta({ id: 'CreativeReviewer', description: 'host: from the emailed review link; administrator: an administrator, on the host’s behalf.' });

/** The decision on a revision: who, when, and the comment of a request for changes. */
export const creativeReviewSchema = z
  .object({
    reviewed_at: timestamp,
    reviewed_by: creativeReviewerSchema,
    comment: z.string().nullable().meta({ description: 'What should change (a request for changes); null for an approval.' }),
  })
  .meta({ id: 'CreativeReview' });

export type CreativeReview = z.infer<typeof creativeReviewSchema>;

/** A row's review, or null while nobody has decided. */
export function presentReview(row: Pick<CreativeRow, 'reviewedAt' | 'reviewedBy' | 'reviewComment'>): CreativeReview | null {
  if (!row.reviewedAt || !row.reviewedBy) return null;
  return { reviewed_at: row.reviewedAt.toISOString(), reviewed_by: row.reviewedBy, comment: row.reviewComment };
}

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
    status: creativeStatusSchema,
    revision: z.number().int().meta({ description: 'Which revision of the offer’s creative: 1 at acceptance, n + 1 for each request for changes.' }),
    previous_revision_id: idField('crv').nullable().meta({ description: 'The revision this one replaces; null for revision 1.' }),
    script: z.string().meta({ description: 'What the host voice reads.' }),
    voice: z.string(),
    synthetic_voice: z.boolean().meta({ description: 'Always true: the host’s voice is synthesized, under their consent.' }),
    voice_consent_id: idField('vcn')
      .nullable()
      .meta({ description: 'The host’s voice consent it is (being) synthesized under; null while awaiting one.' }),
    review: creativeReviewSchema.nullable().meta({ description: 'The decision on this revision; null while nobody has decided.' }),
    review_link_expires_at: timestamp.nullable().meta({
      description: 'Until when the host’s emailed review link opens this revision (made when it reaches pending_approval); null when it has none.',
    }),
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
    formats: z.array(creativeFormatSchema).meta({
      description:
        'The renditions the audio can be downloaded in, default (MP3) first, while the creative holds audio (pending_approval: ' +
        'administrator keys only; approved); empty otherwise.',
    }),
    audio_url: z
      .string()
      .nullable()
      .meta({
        description:
          'Where to GET the audio once approved (same Authorization): MP3 by default; `Accept` or `?format=` picks another rendition. ' +
          'Null in every other state.',
      }),
    failure_reason: z.string().nullable(),
    attempts: z.number().int(),
    ready_at: timestamp.nullable().meta({ description: 'When its audio was synthesized (it then awaits approval).' }),
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
    revision: row.revision,
    previous_revision_id: row.previousRevisionId,
    script: row.script,
    voice: row.voice,
    synthetic_voice: row.syntheticVoice,
    voice_consent_id: row.voiceConsentId,
    review: presentReview(row),
    review_link_expires_at: isoOrNull(row.reviewLinkExpiresAt),
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
    audio_url: row.status === 'approved' ? audioUrl(row) : null,
    failure_reason: row.failureReason,
    attempts: row.attempts,
    ready_at: isoOrNull(row.readyAt),
    ...versionedOf(row),
  };
}

export const creativeIdParam = { creativeId: z.string().min(1).meta({ description: 'Creative id (crv_…).' }) };
