import { found } from '@/server/errors';
import { findCreative, listRevisions } from '@/server/services/creatives/find-creatives';
import { networkProcedure } from '@/server/trpc';
import { presentCreative } from './creative.types';
import { creativeRevisionsSchema, listCreativeRevisionsInput } from './list-creative-revisions.types';

export const listCreativeRevisionsRoute = networkProcedure('read_only')
  .meta({
    errors: { 'not-found': 'No creative with this id in the network.' },
    openapi: {
      method: 'GET',
      path: '/networks/{networkId}/creatives/{creativeId}/revisions',
      tags: ['creatives'],
      summary: 'List every revision of a creative',
      description:
        'Every revision of the same offer’s creative — the one named, those before it and those after — revision 1 first, each with its ' +
        '`review` (who decided, when, the comment). One page: an offer has at most 20 revisions (`next_cursor` is always null).',
      protect: true,
    },
  })
  .input(listCreativeRevisionsInput)
  .output(creativeRevisionsSchema)
  .query(async ({ ctx, input }) => {
    const creative = found(await findCreative({ db: ctx.db, networkId: input.networkId, id: input.creativeId }), 'Creative');
    const revisions = await listRevisions({ db: ctx.db, networkId: creative.networkId, offerId: creative.offerId });
    return { items: revisions.map(presentCreative), next_cursor: null };
  });
