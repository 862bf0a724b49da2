/**
 * Voice consent's vocabulary (docs/voice-consent.md), without Drizzle or node: the API schemas built
 * from it are imported by the console's client code too.
 */

/** What is stored; `expired` is derived when a consent is read (voiceConsentStatus). */
export const STORED_VOICE_CONSENT_STATUSES = ['pending', 'granted', 'refused', 'revoked'] as const;
/** What the API shows: pending → granted | refused | revoked | expired; granted → revoked | expired. */
export const VOICE_CONSENT_STATUSES = ['pending', 'granted', 'refused', 'revoked', 'expired'] as const;
export type VoiceConsentStatus = (typeof VOICE_CONSENT_STATUSES)[number];

/** What a consent covers: every campaign of the network, or the campaigns of the advertisers it lists. */
export const VOICE_CONSENT_SCOPES = ['all_campaigns', 'advertisers'] as const;
export type VoiceConsentScope = (typeof VOICE_CONSENT_SCOPES)[number];

/** Who revoked a consent: the host (from the emailed link) or an administrator of the network. */
export const VOICE_CONSENT_REVOKERS = ['host', 'administrator'] as const;

/** The shape of a consent link's token (`vcl_` and 40 base62 characters). */
export const VOICE_CONSENT_TOKEN_PATTERN = /^vcl_[0-9A-Za-z]{40}$/;

/** How long a consent link works at most; sooner when the consent itself ends sooner. */
export const VOICE_CONSENT_LINK_DAYS = 30;

/** Most advertisers one consent may name. */
export const MAX_VOICE_CONSENT_ADVERTISERS = 100;

/** A consent's scope in words, as the email and the host's page say it: "all of its campaigns", "the campaigns of Acme and Zed". */
export function scopeInWords(scope: VoiceConsentScope, advertisers: ReadonlyArray<{ name: string }>): string {
  if (scope === 'all_campaigns' || advertisers.length === 0) return 'all of its campaigns';
  const names = advertisers.map((a) => a.name);
  const list = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]!}`;
  return `the campaigns of ${list}`;
}
