import { config } from '@/server/config';
import { requestVoiceConsent } from '@/server/services/voice-consents/request-voice-consent';
import { networkProcedure } from '@/server/trpc';
import { requestedVoiceConsentSchema, requestVoiceConsentInput } from './request-voice-consent.types';
import { presentVoiceConsent } from './voice-consent.types';

export const requestVoiceConsentRoute = networkProcedure('administrator')
  .meta({
    errors: {
      'bad-request': 'expires_at is not in the future, or advertiser_ids names something that is not an advertiser of this network.',
      'not-found': 'No podcast with this id in the network.',
      conflict: 'A request to this address for this podcast is still pending.',
      'quota-exceeded': 'The network already has as many pending voice consent requests as it may (QUOTA_PENDING_VOICE_CONSENTS_PER_NETWORK).',
    },
    openapi: {
      method: 'POST',
      path: '/networks/{networkId}/podcasts/{podcastId}/voice-consents',
      tags: ['voice consent'],
      summary: 'Ask a podcast’s host for voice consent',
      description:
        'Emails the host a link to the consent page, sent when the request commits, where they read the consent statement and grant or ' +
        'refuse (and later revoke). The link works for 30 days, or until `expires_at` when sooner, for this consent only. Answers 201 with ' +
        'the consent (`pending`) and, in test mode (`APP_ENV=test`) only, the link’s `token`, once (only a hash is stored).',
      protect: true,
      successDescription: 'Created',
    },
  })
  .input(requestVoiceConsentInput)
  .output(requestedVoiceConsentSchema)
  .mutation(async ({ ctx, input }) => {
    const { consent, token, emailId } = await ctx.db.transaction((tx) =>
      requestVoiceConsent({
        tx,
        networkId: input.networkId,
        podcastId: input.podcastId,
        hostName: input.host_name,
        hostEmail: input.host_email,
        scope: input.scope,
        advertiserIds: [...new Set(input.advertiser_ids ?? [])],
        expiresAt: input.expires_at ? new Date(input.expires_at) : undefined,
        actorKeyId: ctx.principal.keyId,
      }),
    );
    ctx.http.status = 201;
    return { ...presentVoiceConsent(consent), email_id: emailId, ...(config().APP_ENV === 'test' ? { token } : {}) };
  });
