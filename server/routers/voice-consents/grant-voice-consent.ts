import { grantVoiceConsent } from '@/server/services/voice-consents/decide-voice-consent';
import { readVoiceConsentLink } from '@/server/services/voice-consents/link-view';
import { voiceConsentLinkProcedure } from '@/server/trpc';
import { decideVoiceConsentInput } from './decide-voice-consent.types';
import { presentVoiceConsentLinkView, voiceConsentLinkViewSchema } from './get-current-voice-consent.types';

export const grantVoiceConsentRoute = voiceConsentLinkProcedure
  .meta({
    errors: {
      'bad-request': 'statement_version is not a version of the statement.',
      'not-found': 'The link ended while this ran.',
      conflict:
        'The request is no longer pending (granted, refused, revoked or expired — also by a decision racing this one), or the statement has a newer version.',
    },
    openapi: {
      method: 'POST',
      path: '/voice-consents/current/grant',
      tags: ['voice consent'],
      summary: 'Grant voice consent (the host, from the link)',
      description:
        'The link’s token as the bearer. pending → granted, recording when, the statement’s version and SHA-256 (send the version the page ' +
        'showed), and the User-Agent; no IP address. Sends `voice_consent.granted`. A request that is not pending → 409: of two decisions ' +
        'racing on one consent exactly one wins.',
      protect: true,
    },
  })
  .input(decideVoiceConsentInput)
  .output(voiceConsentLinkViewSchema)
  .mutation(async ({ ctx, input }) =>
    presentVoiceConsentLinkView(
      await ctx.db.transaction(async (tx) => {
        const consent = await grantVoiceConsent({
          tx,
          consent: ctx.voiceConsent!.row,
          statementVersion: input.statement_version,
          userAgent: ctx.header('user-agent'),
        });
        return readVoiceConsentLink({ db: tx, consent });
      }),
    ),
  );
