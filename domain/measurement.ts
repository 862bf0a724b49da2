/**
 * The words of delivery measurement (docs/measurement.md): what the counting rules make of a call
 * of a tracking URL, the macros a host's ad server fills in, and the labels of the two counts.
 */

/** What a recorded hit came to: one impression, or why it was not one. */
export const TRACKING_OUTCOMES = ['counted', 'duplicate', 'bot', 'abnormal'] as const;
export type TrackingOutcome = (typeof TRACKING_OUTCOMES)[number];

/** A tracking URL's token: `trk_` and 32 random hex digits (128 bits); it names no network and grants nothing. */
export const TRACKING_TOKEN_PREFIX = 'trk_';
export const TRACKING_TOKEN_PATTERN = /^trk_[0-9a-f]{32}$/;

/**
 * The query parameters of a tracking URL, each with the placeholder the offer's `tracking_url`
 * carries for the host to replace with its ad server's own macro. A value left as its placeholder
 * (or any `{…}`) reads as absent.
 */
export const TRACKING_MACROS = {
  episode: { placeholder: '{episode_id}', maxLength: 200, meaning: 'the episode the ad was served in (the host’s or ad server’s id)' },
  ts: { placeholder: '{timestamp}', maxLength: 40, meaning: 'when the ad server served the ad: Unix seconds or milliseconds, or ISO 8601' },
  rid: { placeholder: '{request_id}', maxLength: 128, meaning: 'the ad server’s own id for the request, for reconciling with its logs' },
} as const;

/** Where a count comes from, as reports label it. */
export const DELIVERY_COUNT_LABELS = {
  tracked: 'Counted by this service from its tracking URL, by the rules of docs/measurement.md.',
  reported: 'Reported by the host (or its ad server), per day and source; a later report for a day and source replaces the earlier one.',
} as const;

/** A delivery report's source: a short lower-case name (`megaphone`, `acast`, `host-export`). */
export const DELIVERY_SOURCE_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;
