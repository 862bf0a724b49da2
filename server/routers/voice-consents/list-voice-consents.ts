import { paginate } from '@/server/http/pagination';
import { listVoiceConsents } from '@/server/services/voice-consents/find-voice-consents';
import { networkProcedure } from '@/server/trpc';
import { listVoiceConsentsInput, listVoiceConsentsOutput } from './list-voice-consents.types';
import { presentVoiceConsent } from './voice-consent.types';

export const listVoiceConsentsRoute = networkProcedure('read_only')
  .meta({
    openapi: {
      method: 'GET',
      path: '/networks/{networkId}/voice-consents',
      tags: ['voice consent'],
      summary: 'List the network’s voice consents',
      description: 'Ordered by id (= request time); filter by `podcast_id` and `status` (expired is derived, as each consent shows it).',
      protect: true,
    },
  })
  .input(listVoiceConsentsInput)
  .output(listVoiceConsentsOutput)
  .query(({ ctx, input }) =>
    paginate(
      input,
      `voice-consents:${input.networkId}:${input.podcast_id ?? ''}:${input.status ?? ''}`,
      (after, take) =>
        listVoiceConsents({
          db: ctx.db,
          networkId: input.networkId,
          filter: { podcastId: input.podcast_id, status: input.status },
          afterId: after,
          take,
        }),
      presentVoiceConsent,
    ),
  );
