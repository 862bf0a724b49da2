import { z } from 'zod';
import type { PodcastRow } from '@/server/services/podcasts/find-podcasts';
import { VOICE_PRESETS } from '@/server/services/podcasts/voices';
import { idField, isoOrNull, maxCharacters, networkParam, timestamp, versionedFields, versionedOf } from '@/server/routers/shared.types';

/** Path parameters of a podcast route. */
export const podcastParams = {
  ...networkParam,
  podcastId: z.string().min(1).meta({ description: 'Podcast id (pod_…).' }),
};

export const voiceSchema = z
  .enum(VOICE_PRESETS, { error: `voice must be one of: ${VOICE_PRESETS.join(', ')}.` })
  .meta({ id: 'VoicePreset', description: 'The host-voice preset creatives are read in.' });

export const hostNameField = z
  .string({ error: 'host_name is required and must be a string.' })
  .trim()
  .min(1, 'host_name must not be blank.')
  .check(maxCharacters(200, 'host_name must be at most 200 characters.'));

export const rssUrlField = z
  .string({ error: 'rss_url must be a string (an http or https URL).' })
  .trim()
  .check(maxCharacters(2048, 'rss_url must be at most 2048 characters.'))
  .pipe(z.url({ protocol: /^https?$/, error: 'rss_url must be an http or https URL.' }));

export const optInStatusSchema = z.enum(['not_opted_in', 'opted_in', 'opted_out']).meta({
  id: 'OptInStatus',
  description: 'not_opted_in (new) → opted_in ↔ opted_out, by POST …/opt-in and …/opt-out.',
});

export const podcastSchema = z
  .object({
    id: z.string().meta({ example: 'pod_01jd8x6v2c9q7r5t3w1y0zabcd' }),
    network_id: idField('net'),
    name: z.string(),
    host_name: z.string(),
    voice: voiceSchema,
    rss_url: z.string().nullable(),
    opt_in_status: optInStatusSchema,
    opted_in_at: timestamp.nullable(),
    ...versionedFields,
  })
  .meta({ id: 'Podcast' });

export type Podcast = z.infer<typeof podcastSchema>;

export function presentPodcast(row: PodcastRow): Podcast {
  return {
    id: row.id,
    network_id: row.networkId,
    name: row.name,
    host_name: row.hostName,
    voice: row.voice as Podcast['voice'],
    rss_url: row.rssUrl,
    opt_in_status: row.optInStatus,
    opted_in_at: isoOrNull(row.optedInAt),
    ...versionedOf(row),
  };
}
