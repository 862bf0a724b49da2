import { z } from 'zod';
import { voiceConsentParams } from './voice-consent.types';

export const revokeVoiceConsentInput = z.strictObject({ ...voiceConsentParams });
