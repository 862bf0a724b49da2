import { revokeVoiceConsent } from '@/server/services/voice-consents/decide-voice-consent';
import { readVoiceConsentLink } from '@/server/services/voice-consents/link-view';
import { voiceConsentLinkProcedure } from '@/server/trpc';
import { revokeCurrentVoiceConsentInput } from './decide-voice-consent.types';
import { presentVoiceConsentLinkView, voiceConsentLinkViewSchema } from './get-current-voice-consent.types';

export const revokeCurrentVoiceConsentRoute = voiceConsentLinkProcedure
  .meta({
    errors: {
      'not-found': 'The link ended while this ran.',
      conflict: 'The consent is not granted (pending, refused, revoked or expired — also when it was revoked while this ran).',
    },
    openapi: {
      method: 'POST',
      path: '/voice-consents/current/revoke',
      tags: ['voice consent'],
      summary: 'Revoke voice consent (the host, from the link)',
      description:
        'The link’s token as the bearer. granted → revoked, recording when and the User-Agent; sends `voice_consent.revoked`. ' +
        'Anything but a granted consent → 409.',
      protect: true,
    },
  })
  .input(revokeCurrentVoiceConsentInput)
  .output(voiceConsentLinkViewSchema)
  .mutation(async ({ ctx }) =>
    presentVoiceConsentLinkView(
      await ctx.db.transaction(async (tx) => {
        const consent = await revokeVoiceConsent({ tx, consent: ctx.voiceConsent!.row, by: { host: true, userAgent: ctx.header('user-agent') } });
        return readVoiceConsentLink({ db: tx, consent });
      }),
    ),
  );
