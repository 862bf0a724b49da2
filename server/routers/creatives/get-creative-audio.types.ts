import { z } from 'zod';
import { networkParam } from '@/server/routers/shared.types';
import { audioFormatSchema, creativeIdParam } from './creative.types';

export const getCreativeAudioInput = z.strictObject({
  ...networkParam,
  ...creativeIdParam,
  format: audioFormatSchema
    .optional()
    .meta({ description: 'The rendition: `mp3` (audio/mpeg, the default) or `wav` (audio/wav). Takes precedence over `Accept`.' }),
});
