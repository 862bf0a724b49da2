import { z } from 'zod';
import { podcastParams } from './podcast.types';

/** No body: `curl -X POST …/opt-in` is the whole request. */
export const optInPodcastInput = z.strictObject({ ...podcastParams });
