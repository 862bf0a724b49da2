import { DELIVERY_COUNT_LABELS } from '@/domain/measurement';
import { paginate } from '@/server/http/pagination';
import { presentPacing } from '@/server/routers/flights/flight.types';
import { assertFilterInNetwork, deliveryReport, reportRange, type DeliveryRow } from '@/server/services/reports/delivery-report';
import { networkProcedure } from '@/server/trpc';
import { DEFAULT_REPORT_DAYS, deliveryReportInput, deliveryReportOutput, MAX_REPORT_DAYS, type DeliveryReportRowOut } from './delivery-report.types';

export const deliveryReportRoute = networkProcedure('read_only')
  .meta({
    errors: { 'not-found': 'A `flight_id`, `campaign_id` or `podcast_id` filter names no flight, campaign or podcast of the network.' },
    openapi: {
      method: 'GET',
      path: '/networks/{networkId}/reports/delivery',
      tags: ['reports'],
      summary: 'Report delivery by day, flight, podcast or campaign',
      description:
        `Impressions over the UTC days \`from\`..\`to\` (inclusive; default the ${DEFAULT_REPORT_DAYS} days ending today; at most ${MAX_REPORT_DAYS}), ` +
        `counted two ways, side by side: \`tracked_impressions\` (${DELIVERY_COUNT_LABELS.tracked}) and \`reported_impressions\` (${DELIVERY_COUNT_LABELS.reported}) ` +
        '`group_by=day` (default) gives every day of the range, zeros included; `flight`, `podcast` and `campaign` give a row for each one whose offers have a tracking-URL call ' +
        'or a host report in the range — by flight also each flight with a goal whose dates overlap the range, delivered or not — ordered by id; offers made without a flight ' +
        'count by day, podcast and campaign but are not in a by-flight report. The filters `flight_id`, `campaign_id`, `podcast_id` narrow the offers counted. ' +
        '`goal`: a flight’s impression goal, a campaign’s flights’ goals summed. `pacing` (flights with a goal) is over the flight’s whole life so far, **not** limited to ' +
        '`from`/`to`, as on the flight itself. Read from daily rollups kept as hits arrive. `Accept: text/csv` gives the same rows as CSV.',
      protect: true,
    },
  })
  .input(deliveryReportInput)
  .output(deliveryReportOutput)
  .query(async ({ ctx, input }) => {
    const { networkId, group_by: groupBy } = input;
    const { from, to } = reportRange({ from: input.from, to: input.to, maxDays: MAX_REPORT_DAYS, defaultDays: DEFAULT_REPORT_DAYS });
    const filter = { flightId: input.flight_id, campaignId: input.campaign_id, podcastId: input.podcast_id };
    await assertFilterInNetwork({ db: ctx.db, networkId, filter });
    const now = Date.now();
    const present = (row: DeliveryRow): DeliveryReportRowOut => ({
      key: row.id,
      name: row.name,
      tracked_impressions: row.tracked,
      reported_impressions: row.reported,
      goal: row.goal,
      pacing: row.flight ? presentPacing({ impressionGoal: row.goal, ...row.flight }, row.flight.delivered, now) : null,
    });
    const page = await paginate(
      input,
      `delivery-report:${networkId}:${groupBy}:${from}..${to}:flight=${filter.flightId ?? ''}:campaign=${filter.campaignId ?? ''}:podcast=${filter.podcastId ?? ''}`,
      (after, take) => deliveryReport({ db: ctx.db, networkId, from, to, groupBy, filter, afterKey: after, take }),
      present,
    );
    return { ...page, from, to, group_by: groupBy };
  });
