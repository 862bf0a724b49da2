import { z } from 'zod';
import { nameField, versionField } from '@/server/routers/shared.types';
import {
  endsAtField,
  externalOrderIdField,
  flightParams,
  impressionGoalField,
  maxDurationField,
  placementSchema,
  pricingField,
  startsAtField,
} from './flight.types';

export const updateFlightInput = z.strictObject({
  ...flightParams,
  name: nameField.meta({ description: 'A name for the flight (at most 200 characters).' }).optional(),
  starts_at: startsAtField.optional(),
  ends_at: endsAtField.optional(),
  placement: placementSchema.optional(),
  max_duration_seconds: maxDurationField.optional(),
  pricing: pricingField.optional(),
  impression_goal: impressionGoalField.nullable().meta({ description: 'null clears it (only for flat pricing).' }).optional(),
  external_order_id: externalOrderIdField.nullable().meta({ description: 'null clears it.' }).optional(),
  version: versionField,
});
