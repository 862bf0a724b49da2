import { z } from 'zod';
import { voiceConsentParams } from './voice-consent.types';

export const getVoiceConsentInput = z.strictObject({ ...voiceConsentParams });
