import { z } from 'zod';
import { INITIAL_CAMPAIGN_STATUSES } from '@/domain/campaign-transitions';
import { nameField, networkParam } from '@/server/routers/shared.types';
import {
  advertiserIdField,
  budgetCentsField,
  competitiveSeparationField,
  currencyField,
  dateTimeField,
  requiredLinesField,
  scriptField,
  talkingPointsField,
} from './campaign.types';

export const createCampaignInput = z.strictObject({
  ...networkParam,
  name: nameField,
  advertiser_id: advertiserIdField,
  script: scriptField.default(''),
  talking_points: talkingPointsField.default([]),
  required_lines: requiredLinesField.default([]),
  status: z
    .enum(INITIAL_CAMPAIGN_STATUSES, { error: 'status at creation must be draft or active.' })
    .default('draft')
    .meta({ description: 'draft (default) or active.' }),
  starts_at: dateTimeField('starts_at').optional(),
  ends_at: dateTimeField('ends_at').optional().meta({ description: 'Must be after starts_at.' }),
  budget_cents: budgetCentsField.optional(),
  currency: currencyField.optional(),
  competitive_separation: competitiveSeparationField.default(false),
});
