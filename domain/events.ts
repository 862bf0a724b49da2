import { z } from 'zod';
import { ROLES } from '@/domain/roles';
import { CREATIVE_REVIEWERS } from '@/domain/statuses';
import { VOICE_CONSENT_REVOKERS, VOICE_CONSENT_SCOPES } from '@/domain/voice-consent';

/** Every event type the service records and delivers (spec: Events). */
export const EVENT_TYPES = {
  'offer.accepted': 'A campaign offer is accepted.',
  'offer.rejected': 'A campaign offer is rejected.',
  'optin.completed': 'A podcast completes opt-in.',
  'invitation.accepted': 'A network invitation is accepted.',
  'creative.ready': "A host-voiced creative has finished generating: its audio awaits the host's approval (pending_approval).",
  'creative.failed': 'A creative failed to generate.',
  'creative.approved':
    'A revision of a host-voiced creative is approved, by the host or an administrator on their behalf: its audio is offered for delivery.',
  'creative.changes_requested':
    'Changes are requested to a revision of a host-voiced creative, by the host or an administrator on their behalf: the next revision is being made.',
  'voice_consent.granted': 'A podcast host grants consent to ads in their synthesized voice.',
  'voice_consent.revoked': 'A voice consent (or a pending request for one) is revoked, by the host or an administrator.',
  'flight.goal_reached': 'A flight’s tracked impressions reach its impression goal (found by the daily pacing check; once per flight, ever).',
  'flight.underdelivering':
    'A live flight is behind pace: its tracked impressions are below 90 % of an even delivery of its goal to date (the daily pacing check; at most once per flight per UTC day).',
} as const;

export type EventType = keyof typeof EVENT_TYPES;

export const EVENT_TYPE_NAMES = Object.keys(EVENT_TYPES) as [EventType, ...EventType[]];

const id = (prefix: string, what: string) => z.string().describe(`The ${what} (${prefix}_…).`);
const offerParties = {
  offer_id: id('off', 'offer'),
  campaign_id: id('cmp', 'campaign'),
  podcast_id: id('pod', 'podcast'),
};
const flightPacing = {
  flight_id: id('flt', 'flight'),
  campaign_id: id('cmp', 'campaign the flight belongs to'),
  goal: z.number().int().describe('The flight’s impression goal.'),
  delivered: z.number().int().describe('Tracked impressions of all the flight’s offers so far (docs/measurement.md, what pacing counts).'),
};

/**
 * The `data` of each event type. `recordEvent` takes data of this type and parses it with this
 * schema, and GET /event-types shows it as JSON Schema: what is documented is what is sent.
 * Strict: a field added to an emitter without its schema fails, in tests and at runtime.
 */
export const EVENT_DATA_SCHEMAS = {
  'offer.accepted': z.strictObject({
    ...offerParties,
    creative_id: id('crv', 'creative being generated for the offer'),
    tracking_url: z
      .string()
      .describe('What the host’s ad server calls (GET or HEAD) each time it serves the ad, its macros filled in (docs/measurement.md).'),
  }),
  'offer.rejected': z.strictObject({ ...offerParties, reason: z.string().nullable().describe('Why, when the podcast gave a reason.') }),
  'optin.completed': z.strictObject({
    podcast_id: id('pod', 'podcast'),
    name: z.string().describe('The podcast’s name.'),
    host_name: z.string().describe('Its host’s name.'),
  }),
  'invitation.accepted': z.strictObject({
    invitation_id: id('ivt', 'invitation'),
    member_id: id('mem', 'new (or reactivated) membership'),
    user_id: id('usr', 'person who accepted'),
    email: z.string().describe('The address the invitation was sent to.'),
    role: z.enum(ROLES).describe('The role the member now holds.'),
  }),
  'creative.ready': z.strictObject({
    creative_id: id('crv', 'creative'),
    ...offerParties,
    mime_type: z.string().describe('Media type of the default rendition (audio/mpeg).'),
    duration_ms: z.number().int().describe('Length of the audio in milliseconds.'),
    audio_url: z.string().describe('Where the API serves the audio (GET, with an API key of the network).'),
  }),
  'creative.failed': z.strictObject({
    creative_id: id('crv', 'creative'),
    ...offerParties,
    failure_reason: z.string().describe('Why generation failed, in a sentence meant for people.'),
  }),
  'creative.approved': z.strictObject({
    creative_id: id('crv', 'creative: the revision approved'),
    ...offerParties,
    revision: z.number().int().describe('Which revision of the offer’s creative (1, 2, …).'),
    reviewed_by: z
      .enum(CREATIVE_REVIEWERS)
      .describe('host: from the emailed review link; administrator: an administrator’s key, on the host’s behalf.'),
    audio_url: z.string().describe('Where the API serves the approved audio (GET, with an API key of the network).'),
  }),
  'creative.changes_requested': z.strictObject({
    creative_id: id('crv', 'creative: the revision changes were requested to'),
    ...offerParties,
    revision: z.number().int().describe('Which revision of the offer’s creative the changes were requested to.'),
    reviewed_by: z
      .enum(CREATIVE_REVIEWERS)
      .describe('host: from the emailed review link; administrator: an administrator’s key, on the host’s behalf.'),
    comment: z.string().describe('What should change, as the reviewer wrote it.'),
    new_creative_id: id('crv', 'next revision, now generating or awaiting consent'),
    new_revision: z.number().int().describe('The next revision’s number (revision + 1).'),
  }),
  'voice_consent.granted': z.strictObject({
    consent_id: id('vcn', 'voice consent'),
    podcast_id: id('pod', 'podcast whose host granted it'),
    host_name: z.string().describe('The host, as the request named them.'),
    scope: z.enum(VOICE_CONSENT_SCOPES).describe('all_campaigns: every campaign of the network; advertisers: those of advertiser_ids only.'),
    advertiser_ids: z.array(z.string()).describe('The advertisers covered (adv_…) when scope is advertisers; empty otherwise.'),
    expires_at: z.string().nullable().describe('When the consent ends by itself (ISO 8601); null: until revoked.'),
    statement_version: z.number().int().describe('The version of the consent statement the host read.'),
    statement_sha256: z.string().describe('The SHA-256 (hex) of that statement’s text.'),
  }),
  'voice_consent.revoked': z.strictObject({
    consent_id: id('vcn', 'voice consent'),
    podcast_id: id('pod', 'podcast'),
    revoked_by: z.enum(VOICE_CONSENT_REVOKERS).describe('Who revoked it: the host, from the emailed link, or an administrator.'),
    previous_status: z
      .enum(['pending', 'granted'])
      .describe('granted: a consent in force was withdrawn; pending: a request was withdrawn before the host decided.'),
    withdrawn_creative_ids: z
      .array(id('crv', 'creative'))
      .describe('Creatives made under it that no other consent covers, now awaiting consent with their audio deleted (at most 100 ids).'),
    withdrawn_creatives: z.number().int().describe('How many creatives were withdrawn (all of them, also past the 100 ids listed).'),
  }),
  'flight.goal_reached': z.strictObject({
    ...flightPacing,
    reached_on: z.string().describe('The UTC day (YYYY-MM-DD) on which the flight’s tracked impressions reached the goal.'),
  }),
  'flight.underdelivering': z.strictObject({
    ...flightPacing,
    expected_to_date: z
      .number()
      .int()
      .describe(
        'What an even delivery of the goal over the flight’s dates would have delivered by the check: goal × the share of its time elapsed, rounded.',
      ),
    ratio: z.number().describe('delivered ÷ expected_to_date: below 0.9 (1 − the pacing tolerance).'),
    starts_at: z.string().describe('When the flight started (ISO 8601).'),
    ends_at: z.string().describe('When the flight ends (ISO 8601).'),
    day: z.string().describe('The UTC day (YYYY-MM-DD) of the check: at most one such event per flight and day.'),
  }),
} satisfies Record<EventType, z.ZodType>;

export type EventData<T extends EventType> = z.infer<(typeof EVENT_DATA_SCHEMAS)[T]>;

/** One plausible `data` per type: the catalog's example and the body of a test event. */
export const EVENT_DATA_EXAMPLES: { [T in EventType]: EventData<T> } = {
  'offer.accepted': {
    offer_id: 'off_01jd8x6v2c9q7r5t3w1y0zabcd',
    campaign_id: 'cmp_01jd8x6v2c9q7r5t3w1y0zabcd',
    podcast_id: 'pod_01jd8x6v2c9q7r5t3w1y0zabcd',
    creative_id: 'crv_01jd8x6v2c9q7r5t3w1y0zabcd',
    tracking_url: 'https://ads.example.com/t/trk_3f9a1c0b7d2e4a6f8b1c3d5e7f9a0b2c?episode={episode_id}&ts={timestamp}&rid={request_id}',
  },
  'offer.rejected': {
    offer_id: 'off_01jd8x6v2c9q7r5t3w1y0zabcd',
    campaign_id: 'cmp_01jd8x6v2c9q7r5t3w1y0zabcd',
    podcast_id: 'pod_01jd8x6v2c9q7r5t3w1y0zabcd',
    reason: 'Not a fit for our audience.',
  },
  'optin.completed': { podcast_id: 'pod_01jd8x6v2c9q7r5t3w1y0zabcd', name: 'The Morning Pod', host_name: 'Sam Rivera' },
  'invitation.accepted': {
    invitation_id: 'ivt_01jd8x6v2c9q7r5t3w1y0zabcd',
    member_id: 'mem_01jd8x6v2c9q7r5t3w1y0zabcd',
    user_id: 'usr_01jd8x6v2c9q7r5t3w1y0zabcd',
    email: 'alex@example.com',
    role: 'read_only',
  },
  'creative.ready': {
    creative_id: 'crv_01jd8x6v2c9q7r5t3w1y0zabcd',
    offer_id: 'off_01jd8x6v2c9q7r5t3w1y0zabcd',
    campaign_id: 'cmp_01jd8x6v2c9q7r5t3w1y0zabcd',
    podcast_id: 'pod_01jd8x6v2c9q7r5t3w1y0zabcd',
    mime_type: 'audio/mpeg',
    duration_ms: 28_400,
    audio_url: 'https://ads.example.com/v1/networks/net_01jd8x6v2c9q7r5t3w1y0zabcd/creatives/crv_01jd8x6v2c9q7r5t3w1y0zabcd/audio',
  },
  'creative.failed': {
    creative_id: 'crv_01jd8x6v2c9q7r5t3w1y0zabcd',
    offer_id: 'off_01jd8x6v2c9q7r5t3w1y0zabcd',
    campaign_id: 'cmp_01jd8x6v2c9q7r5t3w1y0zabcd',
    podcast_id: 'pod_01jd8x6v2c9q7r5t3w1y0zabcd',
    failure_reason: 'The voice service was unavailable; retry the creative.',
  },
  'creative.approved': {
    creative_id: 'crv_01jd8x6v2c9q7r5t3w1y0zabcd',
    offer_id: 'off_01jd8x6v2c9q7r5t3w1y0zabcd',
    campaign_id: 'cmp_01jd8x6v2c9q7r5t3w1y0zabcd',
    podcast_id: 'pod_01jd8x6v2c9q7r5t3w1y0zabcd',
    revision: 2,
    reviewed_by: 'host',
    audio_url: 'https://ads.example.com/v1/networks/net_01jd8x6v2c9q7r5t3w1y0zabcd/creatives/crv_01jd8x6v2c9q7r5t3w1y0zabcd/audio',
  },
  'creative.changes_requested': {
    creative_id: 'crv_01jd8x6v2c9q7r5t3w1y0zabcd',
    offer_id: 'off_01jd8x6v2c9q7r5t3w1y0zabcd',
    campaign_id: 'cmp_01jd8x6v2c9q7r5t3w1y0zabcd',
    podcast_id: 'pod_01jd8x6v2c9q7r5t3w1y0zabcd',
    revision: 1,
    reviewed_by: 'administrator',
    comment: 'Say the code more slowly, and drop the line about mornings.',
    new_creative_id: 'crv_01jd8x7k4m2n6p8r0t2v4x6zefgh',
    new_revision: 2,
  },
  'voice_consent.granted': {
    consent_id: 'vcn_01jd8x6v2c9q7r5t3w1y0zabcd',
    podcast_id: 'pod_01jd8x6v2c9q7r5t3w1y0zabcd',
    host_name: 'Sam Rivera',
    scope: 'advertisers',
    advertiser_ids: ['adv_01jd8x6v2c9q7r5t3w1y0zabcd'],
    expires_at: '2027-11-21T10:00:00.000Z',
    statement_version: 1,
    statement_sha256: 'b861c0ee55ffa015a8c148d2cab1d4f24bbf6581e761201d39436b15f261e66c',
  },
  'voice_consent.revoked': {
    consent_id: 'vcn_01jd8x6v2c9q7r5t3w1y0zabcd',
    podcast_id: 'pod_01jd8x6v2c9q7r5t3w1y0zabcd',
    revoked_by: 'host',
    previous_status: 'granted',
    withdrawn_creative_ids: ['crv_01jd8x6v2c9q7r5t3w1y0zabcd'],
    withdrawn_creatives: 1,
  },
  'flight.goal_reached': {
    flight_id: 'flt_01jd8x6v2c9q7r5t3w1y0zabcd',
    campaign_id: 'cmp_01jd8x6v2c9q7r5t3w1y0zabcd',
    goal: 100_000,
    delivered: 100_412,
    reached_on: '2026-12-18',
  },
  'flight.underdelivering': {
    flight_id: 'flt_01jd8x6v2c9q7r5t3w1y0zabcd',
    campaign_id: 'cmp_01jd8x6v2c9q7r5t3w1y0zabcd',
    goal: 100_000,
    delivered: 31_250,
    expected_to_date: 50_000,
    ratio: 0.625,
    starts_at: '2026-12-01T00:00:00.000Z',
    ends_at: '2026-12-31T00:00:00.000Z',
    day: '2026-12-16',
  },
};

/** The JSON Schema of an event type's `data` (draft 2020-12, as OpenAPI 3.1 uses). */
export function eventDataJsonSchema(type: EventType): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(EVENT_DATA_SCHEMAS[type], { target: 'draft-2020-12' });
  return schema;
}

export interface EventEnvelope {
  id: string;
  type: EventType;
  occurred_at: string;
  data: Record<string, unknown>;
  /** Present, and true, only on a test event (POST …/webhooks/{id}/test) and on every delivery of a test network. */
  test?: true;
}

/** What a delivery of this type looks like (ids and time are examples). */
export function exampleEnvelope(type: EventType): EventEnvelope {
  return { id: '0b8f6d3e-6a57-4c1e-9b0c-5d2f1e4a7c90', type, occurred_at: '2026-11-21T10:00:00.000Z', data: EVENT_DATA_EXAMPLES[type] };
}

/** The event catalog, as GET /event-types serves it and /docs#webhook-events shows it. */
export function eventCatalog() {
  return EVENT_TYPE_NAMES.map((type) => ({
    type,
    description: EVENT_TYPES[type],
    data_schema: eventDataJsonSchema(type),
    example: exampleEnvelope(type),
  }));
}
