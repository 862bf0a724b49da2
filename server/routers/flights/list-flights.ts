import { found } from '@/server/errors';
import { paginate } from '@/server/http/pagination';
import { findCampaign } from '@/server/services/campaigns/find-campaigns';
import { listFlights } from '@/server/services/flights/find-flights';
import { networkProcedure } from '@/server/trpc';
import { presentFlight } from './flight.types';
import { listFlightsInput, listFlightsOutput } from './list-flights.types';

export const listFlightsRoute = networkProcedure('read_only')
  .meta({
    errors: { 'not-found': 'No campaign with this id in the network.' },
    openapi: {
      method: 'GET',
      path: '/networks/{networkId}/campaigns/{campaignId}/flights',
      tags: ['flights'],
      summary: 'List a campaign’s flights',
      description: 'The campaign’s flights that are not deleted, ordered by id (creation order), with a cursor.',
      protect: true,
    },
  })
  .input(listFlightsInput)
  .output(listFlightsOutput)
  .query(async ({ ctx, input }) => {
    const { networkId, campaignId } = input;
    found(await findCampaign({ db: ctx.db, networkId, campaignId }), 'Campaign');
    return paginate(
      input,
      `flights:${networkId}:campaign=${campaignId}`,
      (after, take) => listFlights({ db: ctx.db, networkId, campaignId, afterId: after, take }),
      presentFlight,
    );
  });
