import { z } from 'zod';
import { CAMPAIGN_STATUSES, CREATIVE_STATUSES, OFFER_STATUSES } from '@/domain/statuses';
import { networkParam } from '@/server/routers/shared.types';

export const networkOverviewInput = z.strictObject({ ...networkParam });

const countsBy = (statuses: readonly string[]) => z.object(Object.fromEntries(statuses.map((s) => [s, z.number().int()])));

export const networkOverviewOutput = z
  .object({
    advertisers: z.number().int().meta({ description: 'Advertisers (not deleted).' }),
    campaigns: countsBy(CAMPAIGN_STATUSES).meta({ description: 'Campaigns by status.' }),
    podcasts: z.object({ total: z.number().int(), opted_in: z.number().int() }),
    offers: countsBy(OFFER_STATUSES).meta({ description: 'Offers by status.' }),
    creatives: countsBy(CREATIVE_STATUSES).meta({ description: 'Creatives by status.' }),
  })
  .meta({ id: 'NetworkOverview' });
