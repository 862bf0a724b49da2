/**
 * The credentials model's picture of voice consent and creative review (issue 38;
 * docs/voice-consent.md, docs/creative-review.md): who may ask a host for consent, grant, refuse
 * or revoke it, accept an offer, and approve or request changes of a creative — and what each
 * answer changes. Pure, like model.ts: `expect…` says what the server must answer, `apply…`
 * records what an allowed operation changed. review-commands.ts sends the requests,
 * review-checks.ts compares the service's states with these after every step.
 *
 * The rules (the contract's "Who may"):
 * - approve / request changes: an administrator key of the creative's network (as the key's mode
 *   rules say: `gate` in model.ts), through `/v1/networks/{n}/creatives/{id}/…`; or the review link
 *   (`crl_…`) of exactly that revision, while it opens it, through `/v1/creative-reviews/current/…`.
 *   A link is not an API key (401 on a network's path); a key, a consent link or a link that does not
 *   open a revision is nobody on the review link's path (404). Only `pending_approval` is decided
 *   (else 409); a decided (approved) revision's link still reads, its POSTs 409; a superseded
 *   revision's (changes requested: revision n+1 exists) or a withdrawn one's link opens nothing (404).
 * - revoke a consent: an administrator key of its network (pending or granted), or the host's
 *   consent link (`vcl_…`, granted only); grant and refuse: the consent link alone (pending only).
 * - the lifecycle (server/services/creatives/consent-gate.ts): accepting makes revision 1,
 *   generating under the most recently granted consent covering it, else awaiting consent; a grant
 *   resumes the podcast's creatives awaiting one; a revocation moves what was made under it to
 *   another covering consent, else back to awaiting consent with no audio, review link or review.
 *   Requesting changes makes revision n+1 (the old one `changes_requested`, its review recorded).
 *
 * Synthesis is real: every step that leaves a creative generating waits until it is pending
 * approval and its review link reached the host's mailbox, so between steps none is generating.
 */
import {
  accessOf,
  allowed,
  describeKey,
  gate,
  isAdministrator,
  isLive,
  networkLabel,
  otherMode,
  refused,
  type Expectation,
  type Key,
  type Model,
} from './model';

export type CreativeStatus = 'awaiting_consent' | 'generating' | 'pending_approval' | 'approved' | 'changes_requested' | 'failed';
export type ConsentStatus = 'pending' | 'granted' | 'refused' | 'revoked';
export type Reviewer = 'host' | 'administrator';

/** A network's advertiser, campaign (with one required line) and opted-in podcast, whose host is `hostEmail`. */
export interface Inventory {
  networkId: string;
  advertiserId: string;
  campaignId: string;
  podcastId: string;
  hostName: string;
  /** One address per podcast: its consents and review links all go there. */
  hostEmail: string;
  script: string;
  /** The campaign's `required_lines`: a new script without it is a 400 naming it. */
  requiredLine: string;
}

export interface VoiceConsent {
  id: string;
  /** Run-local name for traces: `vcn#2@A`. */
  label: string;
  networkId: string;
  podcastId: string;
  /** The host's link (`vcl_…`), read from the host's mailbox. */
  token: string;
  status: ConsentStatus;
  /** Order of grants: the most recent grant covers when several do. */
  grantSeq?: number;
  revokedBy?: Reviewer;
}

export interface Offer {
  id: string;
  networkId: string;
  podcastId: string;
  accepted: boolean;
}

export interface Creative {
  id: string;
  /** `crv#3 r2`: the creative (its revision 1's number) and the revision. */
  label: string;
  networkId: string;
  offerId: string;
  podcastId: string;
  revision: number;
  previousId: string | null;
  status: CreativeStatus;
  consentId: string | null;
  /** Its current review link's token (set when it reached pending_approval; gone when withdrawn). */
  link?: string;
  review?: { by: Reviewer; comment: string | null };
  script: string;
}

/** Every review link the host was mailed, working or not (a dead one is still an adversary's bearer). */
export interface ReviewLink {
  token: string;
  creativeId: string;
  /** `link#4 (crv#3 r2)`. */
  label: string;
}

export interface ReviewWorld {
  inventories: Inventory[];
  consents: VoiceConsent[];
  offers: Offer[];
  creatives: Creative[];
  links: ReviewLink[];
  counter: number;
  grants: number;
  /** Creatives synthesized this run: steps that would synthesize more stop being drawn past a budget. */
  syntheses: number;
  /** The podcast of the newest consent or offer: picks lean to it, so that consents and offers meet. */
  busyPodcast?: string;
}

export function emptyReviewWorld(): ReviewWorld {
  return { inventories: [], consents: [], offers: [], creatives: [], links: [], counter: 0, grants: 0, syntheses: 0 };
}

/** The states in which a creative holds (or is making) audio in the host's voice: what a revocation withdraws. */
const VOICED: readonly CreativeStatus[] = ['generating', 'pending_approval', 'approved'];

/** Who sends a request: an API key, a review link, a consent link. */
export type Bearer = { kind: 'key'; key: Key } | { kind: 'reviewLink'; link: ReviewLink } | { kind: 'consentLink'; consent: VoiceConsent };

export function bearerToken(bearer: Bearer): string {
  return bearer.kind === 'key' ? bearer.key.token : bearer.kind === 'reviewLink' ? bearer.link.token : bearer.consent.token;
}

// ---------------------------------------------------------------------------
// Looking things up
// ---------------------------------------------------------------------------

export function creativeById(review: ReviewWorld, id: string): Creative {
  return review.creatives.find((c) => c.id === id)!;
}

export function consentById(review: ReviewWorld, id: string): VoiceConsent {
  return review.consents.find((c) => c.id === id)!;
}

export function inventoryOf(review: ReviewWorld, podcastId: string): Inventory {
  return review.inventories.find((i) => i.podcastId === podcastId)!;
}

/** The offer's newest revision: the one its `creative_id` names. */
export function newestRevision(review: ReviewWorld, offerId: string): Creative | undefined {
  const revisions = review.creatives.filter((c) => c.offerId === offerId);
  return revisions[revisions.length - 1];
}

/** The consent covering the podcast's creatives now (every consent here is `all_campaigns`): the most recent grant. */
export function coveringConsent(review: ReviewWorld, podcastId: string): VoiceConsent | undefined {
  return review.consents.filter((c) => c.podcastId === podcastId && c.status === 'granted').sort((a, b) => (b.grantSeq ?? 0) - (a.grantSeq ?? 0))[0];
}

/** The link opens its revision: it is the revision's current link, pending approval or approved (decided, still readable). */
export function linkOpens(review: ReviewWorld, link: ReviewLink): boolean {
  const creative = creativeById(review, link.creativeId);
  return creative.link === link.token && (creative.status === 'pending_approval' || creative.status === 'approved');
}

/** Why a link does not open its revision, for traces. */
function whyClosed(review: ReviewWorld, link: ReviewLink): string {
  const creative = creativeById(review, link.creativeId);
  if (creative.status === 'changes_requested') return `${link.label} is of a superseded revision (changes requested)`;
  if (creative.link !== link.token) return `${link.label} was withdrawn with its audio (its consent was revoked)`;
  return `${link.label} opens nothing`;
}

export function describeConsent(consent: VoiceConsent): string {
  return `${consent.label}(${consent.status})`;
}

export function describeCreative(creative: Creative): string {
  return `${creative.label}(${creative.status})`;
}

export function describeBearer(model: Model, bearer: Bearer): string {
  const review = model.review!;
  if (bearer.kind === 'key') return describeKey(model, bearer.key);
  if (bearer.kind === 'consentLink') return `the consent link of ${describeConsent(bearer.consent)}`;
  const creative = creativeById(review, bearer.link.creativeId);
  return `review ${bearer.link.label}${linkOpens(review, bearer.link) ? '' : ', dead'} of ${describeCreative(creative)}`;
}

// ---------------------------------------------------------------------------
// Expected outcomes
// ---------------------------------------------------------------------------

/** A network's path (`/v1/networks/{n}/…`) takes an API key only: a link's token is a 401, a key's standing as `gate` says. */
function networkGate(
  model: Model,
  bearer: Bearer,
  networkId: string,
  role: 'administrator' | 'read_only' = 'administrator',
): Expectation | undefined {
  if (bearer.kind !== 'key') return refused(`a ${bearer.kind === 'reviewLink' ? 'review' : 'consent'} link is not an API key`, 401);
  if (role === 'administrator') return gate(model, bearer.key, networkId);
  const key = bearer.key;
  if (!isLive(model, key)) return refused('the calling key is revoked', 401);
  const access = accessOf(model, key);
  if (isAdministrator(model, access, networkId) || networkId in access.scopes) return undefined;
  return otherMode(model, key, networkId) ?? refused(`the calling key does not reach ${networkLabel(model, networkId)}`, 403);
}

const missingLine = (inventory: Inventory, script: string | undefined) =>
  script !== undefined && !script.replace(/\s+/g, ' ').includes(inventory.requiredLine.replace(/\s+/g, ' '));

/** A new script lacking the campaign's required line: a 400 naming the line (refused also when the state refuses it: either first). */
function scriptRule(inventory: Inventory, script: string | undefined, state: Expectation | undefined): Expectation | undefined {
  if (!missingLine(inventory, script)) return state;
  const why = `the new script lacks the required line «${inventory.requiredLine}»`;
  if (state) return refused(`${state.why}; ${why}`, 400, ...(state.outcome === 'refused' ? state.statuses : []));
  return { outcome: 'refused', statuses: [400], why, detail: new RegExp(inventory.requiredLine.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) };
}

/** Deciding a revision through the network's path: approve (`script` undefined) or request changes. */
export function expectAdminDecision(
  model: Model,
  bearer: Bearer,
  networkId: string,
  creative: Creative,
  changes?: { script: string | undefined },
): Expectation {
  const denied = networkGate(model, bearer, networkId);
  if (denied) return denied;
  if (creative.networkId !== networkId) return refused(`${creative.label} is not a creative of ${networkLabel(model, networkId)}`, 404);
  const state = creative.status === 'pending_approval' ? undefined : refused(`${creative.label} is ${creative.status}, not pending approval`, 409);
  if (!changes) return state ?? allowed();
  return scriptRule(inventoryOf(model.review!, creative.podcastId), changes.script, state) ?? allowed();
}

/** Deciding a revision through the review link's path: only a review link that opens its revision. */
export function expectLinkDecision(model: Model, bearer: Bearer, changes?: { script: string | undefined }): Expectation {
  const review = model.review!;
  if (bearer.kind !== 'reviewLink') return refused(`${bearer.kind === 'key' ? 'an API key' : 'a consent link'} opens no review`, 404);
  if (!linkOpens(review, bearer.link)) return refused(whyClosed(review, bearer.link), 404);
  const creative = creativeById(review, bearer.link.creativeId);
  const state = creative.status === 'pending_approval' ? undefined : refused(`${creative.label} is ${creative.status}: decided`, 409);
  if (!changes) return state ?? allowed();
  return scriptRule(inventoryOf(review, creative.podcastId), changes.script, state) ?? allowed();
}

/** Reading a revision's audio through the network's path: approved to any reader, pending approval to administrators only. */
export function expectAdminAudio(model: Model, bearer: Bearer, networkId: string, creative: Creative): Expectation {
  const denied = networkGate(model, bearer, networkId, 'read_only');
  if (denied) return denied;
  if (creative.networkId !== networkId) return refused(`${creative.label} is not a creative of ${networkLabel(model, networkId)}`, 404);
  if (creative.status === 'approved') return allowed();
  if (creative.status === 'pending_approval' && bearer.kind === 'key') {
    return isAdministrator(model, accessOf(model, bearer.key), networkId) ? allowed() : refused('pending approval: administrators only hear it', 409);
  }
  return refused(`${creative.label} is ${creative.status}: no audio is offered`, 409);
}

/** Reading a revision's audio through its review link. */
export function expectLinkAudio(model: Model, bearer: Bearer): Expectation {
  const review = model.review!;
  if (bearer.kind !== 'reviewLink') return refused(`${bearer.kind === 'key' ? 'an API key' : 'a consent link'} opens no review`, 404);
  if (!linkOpens(review, bearer.link)) return refused(whyClosed(review, bearer.link), 404);
  return allowed();
}

export function expectRequestConsent(model: Model, bearer: Bearer, networkId: string, inventory: Inventory): Expectation {
  const denied = networkGate(model, bearer, networkId);
  if (denied) return denied;
  if (inventory.networkId !== networkId) return refused(`the podcast is not in ${networkLabel(model, networkId)}`, 404);
  const waiting = model.review!.consents.find((c) => c.podcastId === inventory.podcastId && c.status === 'pending');
  if (waiting) return refused(`${waiting.label} to the same host for this podcast is still pending`, 409);
  return allowed();
}

/** Grant or refuse: the consent link alone, while pending. */
export function expectHostDecision(model: Model, bearer: Bearer): Expectation {
  if (bearer.kind !== 'consentLink') return refused(`${bearer.kind === 'key' ? 'an API key' : 'a review link'} opens no consent`, 404);
  const consent = bearer.consent;
  return consent.status === 'pending' ? allowed() : refused(`${consent.label} is ${consent.status}, not pending`, 409);
}

/** The host revokes through the consent link: a granted consent only. */
export function expectHostRevoke(model: Model, bearer: Bearer): Expectation {
  if (bearer.kind !== 'consentLink') return refused(`${bearer.kind === 'key' ? 'an API key' : 'a review link'} opens no consent`, 404);
  const consent = bearer.consent;
  return consent.status === 'granted' ? allowed() : refused(`${consent.label} is ${consent.status}, not granted`, 409);
}

/** An administrator revokes: a pending request (withdrawn) or a granted consent. */
export function expectAdminRevoke(model: Model, bearer: Bearer, networkId: string, consent: VoiceConsent): Expectation {
  const denied = networkGate(model, bearer, networkId);
  if (denied) return denied;
  if (consent.networkId !== networkId) return refused(`${consent.label} is not a consent of ${networkLabel(model, networkId)}`, 404);
  if (consent.status === 'pending' || consent.status === 'granted') return allowed();
  return refused(`${consent.label} is ${consent.status}`, 409);
}

export function expectAcceptOffer(model: Model, bearer: Bearer, networkId: string, offer: Offer): Expectation {
  const denied = networkGate(model, bearer, networkId);
  if (denied) return denied;
  if (offer.networkId !== networkId) return refused(`the offer is not in ${networkLabel(model, networkId)}`, 404);
  if (offer.accepted) return refused('the offer was accepted already', 409);
  return allowed();
}

// ---------------------------------------------------------------------------
// Effects of allowed operations
// ---------------------------------------------------------------------------

function nextLabel(review: ReviewWorld, prefix: string): string {
  review.counter += 1;
  return `${prefix}#${review.counter}`;
}

export function addConsent(model: Model, input: { id: string; token: string; inventory: Inventory }): VoiceConsent {
  const review = model.review!;
  const consent: VoiceConsent = {
    id: input.id,
    label: `${nextLabel(review, 'vcn')}@${networkLabel(model, input.inventory.networkId)}`,
    networkId: input.inventory.networkId,
    podcastId: input.inventory.podcastId,
    token: input.token,
    status: 'pending',
  };
  review.consents.push(consent);
  return consent;
}

/** Granted: the podcast's creatives awaiting a consent start generating under it. Returns them. */
export function applyGrant(review: ReviewWorld, consent: VoiceConsent): Creative[] {
  consent.status = 'granted';
  review.grants += 1;
  consent.grantSeq = review.grants;
  const resumed = review.creatives.filter((c) => c.podcastId === consent.podcastId && c.status === 'awaiting_consent');
  for (const creative of resumed) {
    creative.status = 'generating';
    creative.consentId = consent.id;
  }
  return resumed;
}

export function applyRefuse(consent: VoiceConsent): void {
  consent.status = 'refused';
}

/**
 * Revoked: what was made under it moves to another consent that covers it, or goes back to
 * awaiting consent with no audio, no review link and no review. Returns the creatives withdrawn.
 */
export function applyConsentRevoke(review: ReviewWorld, consent: VoiceConsent, by: Reviewer): Creative[] {
  const wasGranted = consent.status === 'granted';
  consent.status = 'revoked';
  consent.revokedBy = by;
  if (!wasGranted) return [];
  const other = coveringConsent(review, consent.podcastId);
  const withdrawn: Creative[] = [];
  for (const creative of review.creatives) {
    if (creative.consentId !== consent.id || !VOICED.includes(creative.status)) continue;
    if (other) {
      creative.consentId = other.id;
      continue;
    }
    creative.status = 'awaiting_consent';
    creative.consentId = null;
    delete creative.link;
    // The audio is gone, and with it what was decided about it.
    delete creative.review;
    withdrawn.push(creative);
  }
  return withdrawn;
}

function newCreative(review: ReviewWorld, input: { id: string; offer: Offer; revision: number; previous?: Creative; script: string }): Creative {
  const consent = coveringConsent(review, input.offer.podcastId);
  const label = input.previous ? `${input.previous.label.split(' ')[0]} r${input.revision}` : `${nextLabel(review, 'crv')} r1`;
  const creative: Creative = {
    id: input.id,
    label,
    networkId: input.offer.networkId,
    offerId: input.offer.id,
    podcastId: input.offer.podcastId,
    revision: input.revision,
    previousId: input.previous?.id ?? null,
    status: consent ? 'generating' : 'awaiting_consent',
    consentId: consent?.id ?? null,
    script: input.script,
  };
  review.creatives.push(creative);
  return creative;
}

/** Accepted: revision 1, generating under the consent covering it, or awaiting one. */
export function applyAcceptOffer(review: ReviewWorld, offer: Offer, creativeId: string): Creative {
  offer.accepted = true;
  return newCreative(review, { id: creativeId, offer, revision: 1, script: inventoryOf(review, offer.podcastId).script });
}

export function applyApprove(creative: Creative, by: Reviewer): void {
  creative.status = 'approved';
  creative.review = { by, comment: null };
}

/** Changes requested: this revision is decided and superseded; revision n+1 (the new script or the old) starts. */
export function applyRequestChanges(
  review: ReviewWorld,
  creative: Creative,
  input: { by: Reviewer; comment: string; script: string | undefined; newId: string },
): Creative {
  creative.status = 'changes_requested';
  creative.review = { by: input.by, comment: input.comment };
  const offer = review.offers.find((o) => o.id === creative.offerId)!;
  return newCreative(review, {
    id: input.newId,
    offer,
    revision: creative.revision + 1,
    previous: creative,
    script: input.script ?? creative.script,
  });
}

/** Synthesized: pending approval, with the review link the host was mailed, and no decision yet. */
export function applySynthesized(review: ReviewWorld, creative: Creative, token: string): ReviewLink {
  creative.status = 'pending_approval';
  creative.link = token;
  // New audio, a new decision: what was decided on the audio withdrawn before is not carried over.
  delete creative.review;
  const link: ReviewLink = { token, creativeId: creative.id, label: `${nextLabel(review, 'link')} (${creative.label})` };
  review.links.push(link);
  return link;
}
