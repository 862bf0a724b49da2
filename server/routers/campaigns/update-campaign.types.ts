import { z } from 'zod';
import { nameField, versionField } from '@/server/routers/shared.types';
import {
  budgetCentsField,
  campaignParams,
  campaignStatusSchema,
  competitiveSeparationField,
  currencyField,
  dateTimeField,
  requiredLinesField,
  scriptField,
  talkingPointsField,
} from './campaign.types';

export const updateCampaignInput = z.strictObject({
  ...campaignParams,
  name: nameField.optional(),
  script: scriptField.optional(),
  talking_points: talkingPointsField.optional().meta({ description: 'Replaces the list ([] clears it).' }),
  required_lines: requiredLinesField.optional().meta({ description: 'Replaces the list ([] clears it); the script must contain each line.' }),
  status: campaignStatusSchema.optional().meta({ description: 'A transition the state machine allows; any other → 409.' }),
  starts_at: dateTimeField('starts_at').nullable().optional().meta({ description: 'null clears it.' }),
  ends_at: dateTimeField('ends_at').nullable().optional().meta({ description: 'null clears it.' }),
  budget_cents: budgetCentsField.nullable().optional().meta({ description: 'null clears it.' }),
  currency: currencyField.nullable().optional().meta({ description: 'null clears it (only without a budget).' }),
  competitive_separation: competitiveSeparationField.optional(),
  version: versionField,
});
