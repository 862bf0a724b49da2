import { z } from 'zod';
import { previewCampaign as synthesizePreview } from '../../services/creatives/preview-campaign';
import { networkProcedure } from '../../trpc';
import { networkParam } from '../shared.types';

export const previewCampaign = networkProcedure('read_only')
  .meta({
    openapi: {
      method: 'POST',
      path: '/networks/{networkId}/campaigns/{campaignId}/preview',
      tags: ['campaigns'],
      summary: 'Hear the start of the script in a podcast’s voice',
      description:
        'Synthesizes a short preview synchronously and answers with the audio bytes. When the voice service fails it answers 502 (upstream-unavailable); retry later. ' +
        'A script (or, without one, a name) with nothing speakable in it answers 409.',
      protect: true,
    },
  })
  .input(z.strictObject({ ...networkParam, campaignId: z.string().min(1), podcast_id: z.string({ error: 'podcast_id is required.' }).min(1) }))
  .output(z.null())
  .mutation(async ({ ctx, input }) => {
    const result = await synthesizePreview(ctx.db, input.networkId, input.campaignId, input.podcast_id);
    ctx.http.headers['X-Audio-Duration-Ms'] = String(Math.round(result.durationMs));
    ctx.http.raw = { body: result.audio, contentType: result.mimeType };
    return null;
  });
