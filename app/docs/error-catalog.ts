import { ERROR_KINDS, type ErrorKind } from '@/server/errors';

/**
 * Every error type the API answers with, as shown at /docs#errors and
 * /docs/errors/<slug>: slug, status and title are ERROR_KINDS of server/errors.ts
 * (the one list; a kind without its prose here is a type error), the prose is ours.
 */
interface ErrorProse {
  /** One sentence: what the error means. */
  summary: string;
  /** Typical reasons a request gets this answer. */
  causes: string[];
  /** What the client should do about it. */
  remedy: string;
  /** Whether repeating the same request can succeed later. */
  retry: 'no' | 'after-fix' | 'yes';
}

export interface ErrorType extends ErrorProse {
  slug: ErrorKind;
  status: number;
  title: string;
}

const PROSE: Record<ErrorKind, ErrorProse> = {
  'bad-request': {
    summary: 'The request is malformed or a field is invalid.',
    causes: [
      'The body is not valid JSON, or a field has the wrong type or is out of range.',
      'The body contains a field the operation does not know (unknown fields are refused, not ignored).',
      '`limit` is outside 1–200, or `cursor` was changed or belongs to another list.',
      '`If-Match` or `Idempotency-Key` is malformed, or `If-Match` and the body `version` disagree.',
    ],
    remedy:
      'Read `detail` and, for validation errors, the `errors` array (`path` and `message` per field). Fix the request; sending it again unchanged fails the same way.',
    retry: 'after-fix',
  },
  unauthorized: {
    summary: 'The request carries no valid API key.',
    causes: ['No `Authorization` header, or it is not `Bearer <key>`.', 'The key does not exist, was revoked, or has expired.'],
    remedy: 'Send `Authorization: Bearer sk_test_…` (or `sk_live_…`) with a current key. Create a new key if this one was revoked or expired.',
    retry: 'after-fix',
  },
  forbidden: {
    summary: 'The key is valid but may not do this.',
    causes: [
      'The network in the path is not in the key’s scopes.',
      'The key’s role on that network is `read_only` and the operation writes.',
      'The operation needs a `super_user` key (for example creating a network).',
      'The person who owns the key lost or lowered their membership in the network.',
    ],
    remedy: 'Use a key with the needed scope and role, or ask a network administrator to grant it.',
    retry: 'after-fix',
  },
  'not-found': {
    summary: 'The resource does not exist, or this key cannot see it.',
    causes: [
      'The id is wrong or the resource was deleted.',
      'The resource belongs to a network outside the key’s scopes (addressed by its own id, this answers 404 rather than 403, so ids do not leak).',
      'The path is not a route of the API.',
    ],
    remedy: 'Check the id and the path. List the collection to find the resource, or use a key scoped to its network.',
    retry: 'no',
  },
  'method-not-allowed': {
    summary: 'The path exists, but not with this HTTP method.',
    causes: ['For example `PUT` where the API offers `PATCH`, or `DELETE` on a collection.'],
    remedy: 'Use one of the methods listed for the path in the API reference.',
    retry: 'after-fix',
  },
  'not-acceptable': {
    summary: 'The resource exists, but not in any media type the request accepts.',
    causes: [
      'The `Accept` header of a creative’s audio request names no format the creative has (`audio/mpeg` and `audio/wav` are offered; `audio/*` and `*/*` accept either).',
      '`?format=` names a format this creative has no rendition in (audio stored before MP3 renditions existed is WAV or MP3 only).',
    ],
    remedy:
      'Accept one of the types `detail` lists (or send no `Accept` header for MP3), or pick one with `?format=mp3` or `?format=wav`. The creative’s `formats` field lists what it has.',
    retry: 'after-fix',
  },
  conflict: {
    summary: 'The request conflicts with the current state of the resource.',
    causes: [
      'Optimistic locking: the `If-Match` ETag or body `version` is no longer the current one, because someone else changed the resource.',
      'The state does not allow the operation (for example accepting an offer that is no longer open).',
      'A request with the same `Idempotency-Key` is still being processed.',
    ],
    remedy:
      'Read the resource again, re-apply your change to the fresh copy and send it with the new version. For an in-flight Idempotency-Key, wait and retry with the same key.',
    retry: 'after-fix',
  },
  'quota-exceeded': {
    summary: 'Creating this would take the network (or the key’s owner) past one of its quotas.',
    causes: [
      'The network already has as many webhook subscriptions as it may (20 by default; disabled ones count).',
      'The network already has as many pending invitations as it may (100 by default; accepted, revoked and expired ones do not count).',
      'The person or service account the new key is for already has as many active API keys as one owner may (50 by default; revoked and expired ones do not count). Rotating a key makes a key too.',
    ],
    remedy:
      '`detail` names the quota and its current count. Delete or revoke what is no longer used (subscriptions, invitations, keys), then retry. The operator sets the quotas (`QUOTA_*` settings).',
    retry: 'after-fix',
  },
  'brand-safety': {
    summary: 'The offer would break one of the podcast’s brand-safety rules; `detail` names the rule.',
    causes: [
      'The podcast excludes one of the advertiser’s ad categories, or a category above it (an exclusion covers its sub-categories): offering or accepting.',
      'The podcast blocks the advertiser: offering or accepting.',
      'Accepting: the podcast already holds an accepted offer of a competitor (an advertiser sharing a category, or one above or below it) whose dates overlap this offer’s, and one of the two campaigns asks for competitive separation. `detail` names that campaign.',
    ],
    remedy:
      'Offer the campaign to another show (`GET …/flights/{flightId}/eligible-podcasts` lists which are eligible and why not), change dates so they no longer overlap, or have the rule changed on the podcast, the advertiser’s categories or the campaign’s `competitive_separation`. The rules are checked again at accept, since they can change after an offer is made.',
    retry: 'after-fix',
  },
  'voice-consent-required': {
    summary: 'The podcast’s host has not granted voice consent covering this campaign’s advertiser, so nothing may be synthesized in their voice.',
    causes: [
      'Previewing a campaign in a podcast’s voice when no granted consent of that podcast’s host covers the campaign’s advertiser (none asked for, still pending, refused, revoked, or past its `expires_at`).',
    ],
    remedy:
      'Ask the host (`POST …/podcasts/{podcastId}/voice-consents`, scope `all_campaigns` or the advertiser) and preview once they have granted it; `GET …/voice-consents?podcast_id=…&status=granted` shows what is in force. Offers can be made and accepted meanwhile: their creatives wait in `awaiting_consent`.',
    retry: 'after-fix',
  },
  'payload-too-large': {
    summary: 'The request body is larger than 1 MiB.',
    causes: ['A body over 1 MiB (1,048,576 bytes).'],
    remedy: 'Send a smaller body.',
    retry: 'after-fix',
  },
  'unsupported-media-type': {
    summary: 'The body is not sent as JSON.',
    causes: ['A `POST` or `PATCH` with a body but without `Content-Type: application/json`.'],
    remedy: 'Send `Content-Type: application/json` (with curl: `-H "Content-Type: application/json"`).',
    retry: 'after-fix',
  },
  'range-not-satisfiable': {
    summary: 'The `Range` header asks for bytes outside the audio.',
    causes: ['`GET …/creatives/{id}/audio` with a `Range` that starts past the end of the file, or is malformed.'],
    remedy: 'Ask for a range inside the file; the `Content-Range: bytes */<size>` header of this answer gives its size.',
    retry: 'after-fix',
  },
  'idempotency-key-reused': {
    summary: 'The `Idempotency-Key` was already used for a different request.',
    causes: ['Within 24 hours, the same API key sent this `Idempotency-Key` with another method, path or body.'],
    remedy: 'Use a new key (for example a fresh UUID) for every distinct operation; reuse a key only to retry the very same request.',
    retry: 'after-fix',
  },
  'rate-limited': {
    summary: 'The API key, its owner, its network (or, for failed authentication, the client address) sent too many requests.',
    causes: [
      'More requests than the key’s burst allowance, faster than it refills.',
      'More requests from all keys of one person or service account together than their shared budget: more keys do not add to it.',
      'More requests on one network, from all keys acting on it, than the network’s shared budget.',
      'Too many failed authentication attempts from the client’s address.',
      'A campaign preview while the network already has as many previews being made and waiting as the service takes at once (they are synthesized while the caller waits).',
    ],
    remedy: 'Wait the number of seconds in `Retry-After`, then retry. Watch `RateLimit-Remaining` to slow down before the limit is reached.',
    retry: 'yes',
  },
  internal: {
    summary: 'Something unexpected went wrong on the server.',
    causes: ['A fault in the service. No details are exposed; the request id in the logs identifies it.'],
    remedy:
      'Retry with exponential backoff. For `POST`, send the same `Idempotency-Key`: 5xx answers are not stored, so the retry runs the operation again safely.',
    retry: 'yes',
  },
  'upstream-unavailable': {
    summary: 'A service this API depends on (such as voice synthesis) failed or timed out.',
    causes: ['The voice synthesis provider was unreachable, too slow, or returned an error during a synchronous call.'],
    remedy: 'Retry later with backoff.',
    retry: 'yes',
  },
  'service-unavailable': {
    summary: 'The service cannot handle the request right now.',
    causes: ['The service is starting, shutting down, or cannot reach its database.'],
    remedy: 'Retry later with backoff, honouring `Retry-After` when present.',
    retry: 'yes',
  },
};

export const ERROR_TYPES: readonly ErrorType[] = (Object.keys(ERROR_KINDS) as ErrorKind[]).map((slug) => ({
  slug,
  ...ERROR_KINDS[slug],
  ...PROSE[slug],
}));

export function errorType(slug: string): ErrorType | undefined {
  return ERROR_TYPES.find((e) => e.slug === slug);
}

export const RETRY_LABEL: Record<ErrorType['retry'], string> = {
  no: 'No — the answer will not change.',
  'after-fix': 'Only after changing the request (or the key, or the resource).',
  yes: 'Yes, after a delay.',
};
