import { z } from 'zod';
import { emailAddress, idField, nameField, networkParam } from '@/server/routers/shared.types';
import { advertiserIdsField, voiceConsentSchema, voiceConsentScopeSchema } from './voice-consent.types';

/** What the request says, apart from its path: also the console's form. */
export const requestVoiceConsentFields = z.strictObject({
  host_name: nameField.meta({ description: 'The host whose voice the ads would be read in (at most 200 characters).' }),
  host_email: emailAddress.meta({ description: 'Where the consent link is sent; stored lower-cased.' }),
  scope: voiceConsentScopeSchema,
  advertiser_ids: advertiserIdsField.optional(),
  expires_at: z.iso
    .datetime({ offset: true, error: 'expires_at must be an ISO 8601 date-time, e.g. 2027-11-21T10:00:00Z.' })
    .optional()
    .meta({ description: 'When the consent ends by itself, in the future; none: until revoked.' }),
});

/** advertiser_ids goes with scope advertisers, and only with it. */
export function scopeNamesItsAdvertisers(input: { scope: string; advertiser_ids?: string[] | undefined }, ctx: z.RefinementCtx): void {
  if (input.scope === 'advertisers' && !input.advertiser_ids?.length) {
    ctx.addIssue({ code: 'custom', path: ['advertiser_ids'], message: 'With scope advertisers, list the advertisers the consent covers.' });
  }
  if (input.scope === 'all_campaigns' && input.advertiser_ids?.length) {
    ctx.addIssue({ code: 'custom', path: ['advertiser_ids'], message: 'With scope all_campaigns, name no advertisers.' });
  }
}

export const requestVoiceConsentInput = z
  .strictObject({
    ...networkParam,
    podcastId: z.string().min(1).meta({ description: 'Podcast id (pod_…).' }),
    ...requestVoiceConsentFields.shape,
  })
  .superRefine(scopeNamesItsAdvertisers);

export const requestedVoiceConsentSchema = voiceConsentSchema
  .extend({
    email_id: idField('eml').meta({ description: 'The email that carries the consent link to the host (`GET /emails/{emailId}`).' }),
    token: z
      .string()
      .meta({
        description:
          'Test mode (`APP_ENV=test`) only: the link’s token (vcl_…), returned only now, for integration tests and sandboxes. ' +
          'In live mode it is absent: the emailed link is the only copy.',
      })
      .optional(),
  })
  .meta({ id: 'RequestedVoiceConsent' });
