import { readVoiceConsentLink } from '@/server/services/voice-consents/link-view';
import { voiceConsentLinkProcedure } from '@/server/trpc';
import { getCurrentVoiceConsentInput, presentVoiceConsentLinkView, voiceConsentLinkViewSchema } from './get-current-voice-consent.types';

export const getCurrentVoiceConsentRoute = voiceConsentLinkProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/voice-consents/current',
      tags: ['voice consent'],
      summary: 'Read the voice consent a link is for',
      description:
        'With the link’s token as the bearer (`Authorization: Bearer vcl_…`), what the host’s consent page shows: who asks (the network ' +
        'and podcast by name), the scope, the consent statement with its version and SHA-256, and what has been decided. No API key: the ' +
        'token opens this one consent, until the link’s end; any other bearer, or none, answers 404.',
      protect: true,
    },
  })
  .input(getCurrentVoiceConsentInput)
  .output(voiceConsentLinkViewSchema)
  .query(async ({ ctx }) => presentVoiceConsentLinkView(await readVoiceConsentLink({ db: ctx.db, consent: ctx.voiceConsent!.row })));
