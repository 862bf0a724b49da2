import { z } from 'zod';
import { nameField, versionField } from '@/server/routers/shared.types';
import { blockedAdvertiserIdsField, excludedCategoriesField, hostNameField, podcastParams, rssUrlField, voiceSchema } from './podcast.types';

export const updatePodcastInput = z.strictObject({
  ...podcastParams,
  name: nameField.optional(),
  host_name: hostNameField.optional(),
  voice: voiceSchema.optional(),
  rss_url: rssUrlField.nullable().optional().meta({ description: 'null clears it.' }),
  excluded_categories: excludedCategoriesField.optional().meta({ description: 'Replaces the list; [] clears it.' }),
  blocked_advertiser_ids: blockedAdvertiserIdsField.optional().meta({ description: 'Replaces the list; [] clears it.' }),
  version: versionField,
});
