import { z } from 'zod';
import { CAMPAIGN_LINE_MAX_LENGTH, MAX_REQUIRED_LINES, MAX_TALKING_POINTS } from '@/domain/creative-review';
import { CAMPAIGN_STATUSES } from '@/domain/statuses';
import type { CampaignRow } from '@/server/services/campaigns/find-campaigns';
import { idField, isoOrNull, maxCharacters, networkParam, timestamp, versionedFields, versionedOf } from '@/server/routers/shared.types';

/** Path parameters of a campaign route. */
export const campaignParams = {
  ...networkParam,
  campaignId: z.string().min(1).meta({ description: 'Campaign id (cmp_…).' }),
};

export const campaignStatusSchema = z.enum(CAMPAIGN_STATUSES).meta({
  id: 'CampaignStatus',
  description:
    'draft → active | archived; active → paused | completed | archived; paused → active | completed | archived; ' +
    'completed → archived; archived is final.',
});

export const SCRIPT_MAX_LENGTH = 2000;

/** The ad copy the host voice reads. */
export const scriptField = z
  .string({ error: 'script must be a string.' })
  .check(maxCharacters(SCRIPT_MAX_LENGTH, `script must be at most ${SCRIPT_MAX_LENGTH} characters.`))
  .meta({ description: `The ad copy the host voice reads (at most ${SCRIPT_MAX_LENGTH} characters).` });

/** One talking point or required line: 1–500 characters, trimmed. */
const campaignLine = (field: string) =>
  z
    .string({ error: `${field} must list strings.` })
    .trim()
    .min(1, `${field} must not hold a blank line.`)
    .check(maxCharacters(CAMPAIGN_LINE_MAX_LENGTH, `each of ${field} must be at most ${CAMPAIGN_LINE_MAX_LENGTH} characters.`));

export const talkingPointsField = z
  .array(campaignLine('talking_points'), { error: 'talking_points must be an array of strings.' })
  .max(MAX_TALKING_POINTS, `talking_points may hold at most ${MAX_TALKING_POINTS} points.`)
  .meta({
    description:
      `What the advertiser wants said, shown to the host when they review a creative: at most ${MAX_TALKING_POINTS}, each ` +
      `1–${CAMPAIGN_LINE_MAX_LENGTH} characters. Not read verbatim.`,
  });

export const requiredLinesField = z
  .array(campaignLine('required_lines'), { error: 'required_lines must be an array of strings.' })
  .max(MAX_REQUIRED_LINES, `required_lines may hold at most ${MAX_REQUIRED_LINES} lines.`)
  .meta({
    description:
      `Lines every script must contain word for word (legal lines, disclosures, a promo code): at most ${MAX_REQUIRED_LINES}, each ` +
      `1–${CAMPAIGN_LINE_MAX_LENGTH} characters. Whitespace runs count as one space; case, punctuation and order are kept. The ` +
      'campaign’s script and every revision’s script must contain each, else 400 naming the line.',
  });

export const dateTimeField = (field: string) =>
  z.iso.datetime({ offset: true, error: `${field} must be an ISO 8601 date-time, e.g. 2026-11-21T10:00:00Z.` });

export const budgetCentsField = z
  .number({ error: 'budget_cents must be a whole number of minor units (cents), 0 or more.' })
  .int('budget_cents must be a whole number of minor units (cents).')
  .min(0, 'budget_cents must be 0 or more.')
  .max(Number.MAX_SAFE_INTEGER, 'budget_cents is too large.')
  .meta({ description: 'Budget in minor units of `currency`.' });

export const currencyField = z
  .string({ error: 'currency must be a string (ISO 4217 code, e.g. USD).' })
  .regex(/^[A-Z]{3}$/, 'currency must be an ISO 4217 code: three upper-case letters, e.g. USD.')
  .meta({ description: 'ISO 4217 code; required when budget_cents is set.' });

export const advertiserIdField = z
  .string({ error: 'advertiser_id is required and must be a string.' })
  .min(1, 'advertiser_id must not be blank.')
  .meta({ description: 'An advertiser of this network (adv_…).' });

export const competitiveSeparationField = z.boolean({ error: 'competitive_separation must be true or false.' }).meta({
  description:
    'Keep this campaign apart from competitors on a podcast: an offer is refused at accept (409 brand-safety) while the podcast holds an accepted offer ' +
    'of another advertiser that shares a category (the same, or one within the other) in overlapping dates — either campaign asking is enough.',
});

export const campaignSchema = z
  .object({
    id: z.string().meta({ example: 'cmp_01jd8x6v2c9q7r5t3w1y0zabcd' }),
    network_id: idField('net'),
    advertiser_id: idField('adv'),
    name: z.string(),
    script: z.string(),
    talking_points: z.array(z.string()).meta({ description: 'Shown to the host when they review a creative; not read verbatim.' }),
    required_lines: z.array(z.string()).meta({ description: 'Lines every script (the campaign’s, every revision’s) contains word for word.' }),
    status: campaignStatusSchema,
    starts_at: timestamp.nullable(),
    ends_at: timestamp.nullable(),
    budget_cents: z.number().int().nullable(),
    currency: z.string().nullable(),
    competitive_separation: competitiveSeparationField,
    ...versionedFields,
  })
  .meta({ id: 'Campaign' });

export type Campaign = z.infer<typeof campaignSchema>;

export function presentCampaign(row: CampaignRow): Campaign {
  return {
    id: row.id,
    network_id: row.networkId,
    advertiser_id: row.advertiserId,
    name: row.name,
    script: row.script,
    talking_points: row.talkingPoints,
    required_lines: row.requiredLines,
    status: row.status,
    starts_at: isoOrNull(row.startsAt),
    ends_at: isoOrNull(row.endsAt),
    budget_cents: row.budgetCents,
    currency: row.currency,
    competitive_separation: row.competitiveSeparation,
    ...versionedOf(row),
  };
}

/** `undefined` stays undefined (not sent), null clears, a string becomes a Date. */
export function dateOrNull(value: string | null | undefined): Date | null | undefined {
  return value === undefined ? undefined : value === null ? null : new Date(value);
}
