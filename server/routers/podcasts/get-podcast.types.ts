import { z } from 'zod';
import { podcastParams } from './podcast.types';

export const getPodcastInput = z.strictObject({ ...podcastParams });
