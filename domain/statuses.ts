/**
 * State names of the ads, webhook and key tables, without Drizzle, so that the API
 * schemas built from them can be imported by the console's client code.
 */
export const CAMPAIGN_STATUSES = ['draft', 'active', 'paused', 'completed', 'archived'] as const;
export const OFFER_STATUSES = ['open', 'accepted', 'rejected', 'expired'] as const;
/** A flight's state, derived from its dates and the time now (never stored). */
export const FLIGHT_STATUSES = ['scheduled', 'live', 'ended'] as const;
/** Where in an episode a flight's ad runs: pre-, mid- or post-roll. */
export const FLIGHT_PLACEMENTS = ['pre', 'mid', 'post'] as const;
export type FlightPlacement = (typeof FLIGHT_PLACEMENTS)[number];
/** cpm: price per 1,000 impressions, with an impression goal; flat: a fixed fee. */
export const PRICING_MODELS = ['cpm', 'flat'] as const;
export type PricingModel = (typeof PRICING_MODELS)[number];
/**
 * A creative (one revision of a host-voiced ad; docs/creative-review.md):
 * awaiting_consent → generating → pending_approval → approved, or changes_requested (revision n+1
 * replaces it), or failed. A consent revoked or ended sends generating, pending_approval and
 * approved back to awaiting_consent (the audio is withdrawn); a consent granted sends
 * awaiting_consent on to generating. Only `approved` audio is offered for delivery.
 */
export const CREATIVE_STATUSES = ['awaiting_consent', 'generating', 'pending_approval', 'approved', 'changes_requested', 'failed'] as const;
export type CreativeStatus = (typeof CREATIVE_STATUSES)[number];
/** Who reviewed a revision: the host (the emailed review link) or an administrator on the host's behalf. */
export const CREATIVE_REVIEWERS = ['host', 'administrator'] as const;
export type CreativeReviewer = (typeof CREATIVE_REVIEWERS)[number];
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
/** An API key's state now: revoked (also once a rotation's grace has passed), else expired, else active. */
export const KEY_STATUSES = ['active', 'expired', 'revoked'] as const;
export type KeyStatus = (typeof KEY_STATUSES)[number];
/** Renditions a ready creative's audio is stored in (creative_audio.format); the first is the default. */
export const AUDIO_FORMATS = ['mp3', 'wav'] as const;
export type AudioFormat = (typeof AUDIO_FORMATS)[number];
export const AUDIO_MIME_TYPES: Record<AudioFormat, string> = { mp3: 'audio/mpeg', wav: 'audio/wav' };
