import { found } from '@/server/errors';
import { paginate } from '@/server/http/pagination';
import { findCampaign } from '@/server/services/campaigns/find-campaigns';
import { listFlights } from '@/server/services/flights/find-flights';
import { deliveredByFlight } from '@/server/services/reports/flight-delivered';
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
    const page = await paginate(
      input,
      `flights:${networkId}:campaign=${campaignId}`,
      (after, take) => listFlights({ db: ctx.db, networkId, campaignId, afterId: after, take }),
      (row) => row,
    );
    // One read of the rollups for the whole page.
    const delivered = await deliveredByFlight({ db: ctx.db, networkId, flightIds: page.items.map((row) => row.id) });
    return { items: page.items.map((row) => presentFlight(row, delivered.get(row.id) ?? 0)), next_cursor: page.next_cursor };
  });
