import { expectedVersion } from '@/server/http/locking';
import { deleteAdvertiser } from '@/server/services/advertisers/delete-advertiser';
import { networkProcedure } from '@/server/trpc';
import { advertiserSchema, presentAdvertiser } from './advertiser.types';
import { deleteAdvertiserInput } from './delete-advertiser.types';

export const deleteAdvertiserRoute = networkProcedure('administrator')
  .meta({
    errors: {
      'not-found': 'No live advertiser with this id in the network.',
      conflict: 'The version is stale, or the advertiser still has draft, active or paused campaigns.',
    },
    openapi: {
      method: 'DELETE',
      path: '/networks/{networkId}/advertisers/{advertiserId}',
      tags: ['advertisers'],
      summary: 'Delete an advertiser',
      description:
        'Soft delete: answers 200 with the advertiser (`deleted_at` set); from then on it is not listed and reads answer 404. ' +
        'Refused with 409 while the advertiser has campaigns in draft, active or paused state (complete or archive them first). ' +
        'Optionally locked with If-Match.',
      protect: true,
    },
  })
  .input(deleteAdvertiserInput)
  .output(advertiserSchema)
  .mutation(async ({ ctx, input }) => {
    const expected = expectedVersion(ctx.header('if-match'), undefined);
    const row = await ctx.db.transaction((tx) =>
      deleteAdvertiser({ tx, networkId: input.networkId, advertiserId: input.advertiserId, expectedVersion: expected }),
    );
    return presentAdvertiser(row);
  });
