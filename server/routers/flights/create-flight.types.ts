import { z } from 'zod';
import { campaignParams } from '@/server/routers/campaigns/campaign.types';
import { nameField } from '@/server/routers/shared.types';
import {
  endsAtField,
  externalOrderIdField,
  impressionGoalField,
  MAX_DURATION_SECONDS,
  maxDurationField,
  placementSchema,
  pricingField,
  startsAtField,
} from './flight.types';

export const createFlightInput = z.strictObject({
  ...campaignParams,
  name: nameField.meta({ description: 'A name for the flight (at most 200 characters).' }),
  starts_at: startsAtField,
  ends_at: endsAtField,
  placement: placementSchema,
  max_duration_seconds: maxDurationField.default(MAX_DURATION_SECONDS.default),
  pricing: pricingField,
  impression_goal: impressionGoalField.optional(),
  external_order_id: externalOrderIdField.optional(),
});
