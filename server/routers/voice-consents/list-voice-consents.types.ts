import { z } from 'zod';
import { listParams, pageOf } from '@/server/http/page';
import { networkParam } from '@/server/routers/shared.types';
import { voiceConsentSchema, voiceConsentStatusSchema } from './voice-consent.types';

export const listVoiceConsentsInput = z.strictObject({
  ...networkParam,
  ...listParams,
  podcast_id: z.string().min(1).optional().meta({ description: 'Only the consents of this podcast (pod_…).' }),
  status: voiceConsentStatusSchema.optional().meta({ description: 'Only consents in this state (default: all).' }),
});

export const listVoiceConsentsOutput = pageOf(voiceConsentSchema).meta({ id: 'VoiceConsentList' });
