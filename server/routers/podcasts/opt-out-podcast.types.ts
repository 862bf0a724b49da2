import { z } from 'zod';
import { podcastParams } from './podcast.types';

/** No body: `curl -X POST …/opt-out` is the whole request. */
export const optOutPodcastInput = z.strictObject({ ...podcastParams });
