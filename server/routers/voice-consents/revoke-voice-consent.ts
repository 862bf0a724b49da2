import { found } from '@/server/errors';
import { revokeVoiceConsent } from '@/server/services/voice-consents/decide-voice-consent';
import { findVoiceConsent } from '@/server/services/voice-consents/find-voice-consents';
import { networkProcedure } from '@/server/trpc';
import { revokeVoiceConsentInput } from './revoke-voice-consent.types';
import { presentVoiceConsent, voiceConsentSchema } from './voice-consent.types';

export const revokeVoiceConsentRoute = networkProcedure('administrator')
  .meta({
    errors: {
      'not-found': 'No voice consent with this id in the network.',
      conflict: 'The consent is refused, revoked or expired, or its state changed while this ran (a decision racing this one won).',
    },
    openapi: {
      method: 'POST',
      path: '/networks/{networkId}/voice-consents/{consentId}/revoke',
      tags: ['voice consent'],
      summary: 'Revoke a voice consent',
      description:
        'granted → revoked (a consent in force is withdrawn), or pending → revoked (the request is withdrawn and its link stops working ' +
        'for decisions). Sends `voice_consent.revoked`. Any other state → 409, also when the host decided while this ran.',
      protect: true,
    },
  })
  .input(revokeVoiceConsentInput)
  .output(voiceConsentSchema)
  .mutation(async ({ ctx, input }) => {
    const row = await ctx.db.transaction(async (tx) => {
      const consent = found(await findVoiceConsent({ db: tx, networkId: input.networkId, id: input.consentId }), 'Voice consent');
      return revokeVoiceConsent({ tx, consent, by: { host: false, actorKeyId: ctx.principal.keyId } });
    });
    return presentVoiceConsent(row);
  });
