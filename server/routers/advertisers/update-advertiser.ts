import { expectedVersion } from '@/server/http/locking';
import { sentFields } from '@/server/http/patch';
import type { AdvertiserFields } from '@/server/services/advertisers/create-advertiser';
import { updateAdvertiser } from '@/server/services/advertisers/update-advertiser';
import { networkProcedure } from '@/server/trpc';
import { advertiserSchema, presentAdvertiser } from './advertiser.types';
import { updateAdvertiserInput } from './update-advertiser.types';

export const updateAdvertiserRoute = networkProcedure('administrator')
  .meta({
    errors: {
      'not-found': 'No live advertiser with this id in the network.',
      conflict: 'The version you sent (If-Match or body) is stale, or another write came first.',
    },
    openapi: {
      method: 'PATCH',
      path: '/networks/{networkId}/advertisers/{advertiserId}',
      tags: ['advertisers'],
      summary: 'Update an advertiser',
      description: 'Optimistically locked: send If-Match with the ETag you read, or `version`. A stale version answers 409.',
      protect: true,
    },
  })
  .input(updateAdvertiserInput)
  .output(advertiserSchema)
  .mutation(async ({ ctx, input }) => {
    const expected = expectedVersion(ctx.header('if-match'), input.version);
    const changes = sentFields<AdvertiserFields>({
      name: input.name,
      website: input.website,
      contactEmail: input.contact_email,
      categories: input.categories,
    });
    const row = await ctx.db.transaction((tx) =>
      updateAdvertiser({ tx, networkId: input.networkId, advertiserId: input.advertiserId, changes, expectedVersion: expected }),
    );
    return presentAdvertiser(row);
  });
