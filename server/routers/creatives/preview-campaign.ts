import { z } from 'zod';
import { previewCampaign } from '@/server/services/creatives/preview-campaign';
import { networkProcedure } from '@/server/trpc';
import { previewCampaignInput } from './preview-campaign.types';

export const previewCampaignRoute = networkProcedure('read_only')
  .meta({
    changesNothing: true,
    errors: {
      'not-found': 'No campaign (or podcast) with this id in the network.',
      conflict: 'The script (or, without one, the name) has nothing speakable, or the voice service rejected it: edit it; retrying will not help.',
      'voice-consent-required':
        'No granted consent of the podcast’s host covers the campaign’s advertiser: nothing is synthesized in their voice without it.',
      'upstream-unavailable': 'The voice service failed; retry later.',
      'rate-limited':
        'The network already has PREVIEW_CONCURRENCY_PER_NETWORK previews being made and PREVIEW_QUEUE_PER_NETWORK waiting in this process; Retry-After says when to try again.',
    },
    openapi: {
      method: 'POST',
      path: '/networks/{networkId}/campaigns/{campaignId}/preview',
      tags: ['campaigns'],
      summary: 'Hear the start of the script in a podcast’s voice',
      description:
        'Synthesizes a short preview synchronously and answers with the audio bytes. When the voice service fails it answers 502 (upstream-unavailable); retry later. ' +
        'A script (or, without one, a name) with nothing speakable in it answers 409; so does a podcast whose host has not granted voice consent covering the campaign’s advertiser (`voice-consent-required`). ' +
        'Previews are admitted per network: a few at a time, a few more waiting; past that the answer is 429 with Retry-After, so one network’s previews never hold up another’s, nor the synthesis of creatives. ' +
        'It changes nothing, so it takes no Idempotency-Key (one sent is ignored): a retry makes the audio again.',
      protect: true,
    },
  })
  .input(previewCampaignInput)
  .output(z.null())
  .mutation(async ({ ctx, input }) => {
    const result = await previewCampaign({ db: ctx.db, networkId: input.networkId, campaignId: input.campaignId, podcastId: input.podcast_id });
    ctx.http.headers['X-Audio-Duration-Ms'] = String(Math.round(result.durationMs));
    ctx.http.raw = { body: result.audio, contentType: result.mimeType };
    return null;
  });
