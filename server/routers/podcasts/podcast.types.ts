import { z } from 'zod';
import { adCategoryIdsField } from '@/server/routers/ad-categories/ad-category.types';
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

/** Bounds of a podcast's brand-safety lists. */
export const EXCLUDED_CATEGORIES_MAX = 100;
export const BLOCKED_ADVERTISERS_MAX = 100;

export const excludedCategoriesField = adCategoryIdsField(
  'excluded_categories',
  EXCLUDED_CATEGORIES_MAX,
  'Ad categories the show does not carry; an exclusion covers its sub-categories.',
);

export const blockedAdvertiserIdsField = z
  .array(z.string({ error: 'blocked_advertiser_ids must be a list of advertiser ids (adv_…).' }).min(1).max(64), {
    error: 'blocked_advertiser_ids must be a list of advertiser ids (adv_…).',
  })
  .max(BLOCKED_ADVERTISERS_MAX, `blocked_advertiser_ids holds at most ${BLOCKED_ADVERTISERS_MAX} advertisers.`)
  .meta({
    description: `Advertisers of this network the show does not carry (adv_…), at most ${BLOCKED_ADVERTISERS_MAX}; an id that is no advertiser of the network → 400, a repeated one is kept once.`,
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
    excluded_categories: z.array(z.string()).meta({
      example: ['1361'],
      description: 'Ad categories the show does not carry (`GET /v1/ad-categories`); an exclusion covers its sub-categories.',
    }),
    blocked_advertiser_ids: z
      .array(z.string())
      .meta({ example: ['adv_01jd8x6v2c9q7r5t3w1y0zabcd'], description: 'Advertisers the show does not carry.' }),
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
    excluded_categories: row.excludedCategories,
    blocked_advertiser_ids: row.blockedAdvertiserIds,
    ...versionedOf(row),
  };
}
