import { z } from 'zod';
import { nameField, versionField } from '@/server/routers/shared.types';
import { hostNameField, podcastParams, rssUrlField, voiceSchema } from './podcast.types';

export const updatePodcastInput = z.strictObject({
  ...podcastParams,
  name: nameField.optional(),
  host_name: hostNameField.optional(),
  voice: voiceSchema.optional(),
  rss_url: rssUrlField.nullable().optional().meta({ description: 'null clears it.' }),
  version: versionField,
});
