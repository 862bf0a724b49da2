import { z } from 'zod';
import { listParams, pageOf } from '@/server/http/page';
import { campaignParams } from '@/server/routers/campaigns/campaign.types';
import { flightSchema } from './flight.types';

export const listFlightsInput = z.strictObject({ ...campaignParams, ...listParams });

export const listFlightsOutput = pageOf(flightSchema).meta({ id: 'FlightList' });
