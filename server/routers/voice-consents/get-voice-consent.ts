import { found } from '@/server/errors';
import { findVoiceConsent } from '@/server/services/voice-consents/find-voice-consents';
import { networkProcedure } from '@/server/trpc';
import { getVoiceConsentInput } from './get-voice-consent.types';
import { presentVoiceConsent, voiceConsentSchema } from './voice-consent.types';

export const getVoiceConsentRoute = networkProcedure('read_only')
  .meta({
    errors: { 'not-found': 'No voice consent with this id in the network.' },
    openapi: {
      method: 'GET',
      path: '/networks/{networkId}/voice-consents/{consentId}',
      tags: ['voice consent'],
      summary: 'Get a voice consent',
      description: 'Its state, scope, and what was recorded of the host’s decision: when, the statement’s version and SHA-256, the user agent.',
      protect: true,
    },
  })
  .input(getVoiceConsentInput)
  .output(voiceConsentSchema)
  .query(async ({ ctx, input }) =>
    presentVoiceConsent(found(await findVoiceConsent({ db: ctx.db, networkId: input.networkId, id: input.consentId }), 'Voice consent')),
  );
