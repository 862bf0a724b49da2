import { z } from 'zod';
import { nameField, networkParam } from '@/server/routers/shared.types';
import { blockedAdvertiserIdsField, excludedCategoriesField, hostNameField, rssUrlField, voiceSchema } from './podcast.types';

export const createPodcastInput = z.strictObject({
  ...networkParam,
  name: nameField,
  host_name: hostNameField,
  voice: voiceSchema.default('default'),
  rss_url: rssUrlField.optional().meta({ description: 'The show’s RSS feed (http or https URL).' }),
  excluded_categories: excludedCategoriesField.optional(),
  blocked_advertiser_ids: blockedAdvertiserIdsField.optional(),
});
