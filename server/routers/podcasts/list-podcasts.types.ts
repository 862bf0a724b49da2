import { z } from 'zod';
import { listParams, pageOf } from '@/server/http/page';
import { networkParam } from '@/server/routers/shared.types';
import { podcastSchema } from './podcast.types';

export const listPodcastsInput = z.strictObject({ ...networkParam, ...listParams });

export const listPodcastsOutput = pageOf(podcastSchema).meta({ id: 'PodcastList' });
