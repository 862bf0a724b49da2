import { z } from 'zod';

export const getCurrentCreativeReviewAudioInput = z.strictObject({});
