/**
 * Voice consent and creative review as credentials-model commands (issue 38): ask a host for
 * consent, grant, refuse and revoke it (the host's link, an administrator), accept an offer,
 * approve or request changes of a revision (an administrator's key, the host's review link), and
 * hear a revision's audio — each sent by a bearer the model picks: any key it holds (read_only,
 * another network's administrator, revoked, demoted, removed, of the other mode…), the host's
 * consent link, or a review link the host was mailed (of this revision, a superseded one, one
 * withdrawn with its audio). The model (review-model.ts) predicts every answer and state;
 * review-checks.ts compares after every step, with the credential checks.
 *
 * A run's review world is made by its first consent or review step, through the API: in network A
 * (live, two administrators, read_only members) and C (test) an advertiser, an active campaign with a
 * required line and an opted-in podcast with its host; then the opening — both hosts consent through
 * the links they were mailed, and the operator accepts an offer in A, whose revision 1 is pending
 * approval — so that every run has something to decide from its first step. Synthesis
 * is real (the local engine): a step that leaves creatives generating waits until they are pending
 * approval and reads each one's review link off the host's mailbox; steps that would synthesize more
 * are not drawn past MAX_SYNTHESES a run, which keeps runs short.
 */
import fc from 'fast-check';
import { hashToken } from '@/server/auth/tokens';
import { until } from '@/tests/support/until';
import { command, judge, type StepContext, type WeightedCommand } from './commands';
import { post, send, violation, type Answer } from './http';
import { accessOf, isAdministrator, isLive, networkLabel, type Key, type Model } from './model';
import { actorPick, foreignPick, homeOrForeign, newest, pickActor, pickKey, recentPick, usually, type ActorPick } from './picks';
import { checkCreativeView, type CreativeView } from './review-checks';
import {
  addConsent,
  applyAcceptOffer,
  applyApprove,
  applyConsentRevoke,
  applyGrant,
  applyRefuse,
  applyRequestChanges,
  applySynthesized,
  bearerToken,
  describeBearer,
  describeConsent,
  describeCreative,
  emptyReviewWorld,
  expectAcceptOffer,
  expectAdminAudio,
  expectAdminDecision,
  expectAdminRevoke,
  expectHostDecision,
  expectHostRevoke,
  expectLinkAudio,
  expectLinkDecision,
  expectRequestConsent,
  inventoryOf,
  linkOpens,
  type Bearer,
  type Creative,
  type Inventory,
  type Offer,
  type ReviewWorld,
  type VoiceConsent,
} from './review-model';

/** The networks that get ad inventory: a live one with two administrators and read_only members, and the test one. */
const INVENTORY_NETWORKS = ['A', 'C'];
/** Creatives synthesized in one run before the steps that would synthesize more stop being drawn. */
const MAX_SYNTHESES = Number(process.env.CREDENTIALS_MODEL_SYNTHESES ?? 4);
/** How long one synthesis may take (the local engine and mastering take about a second; CI's machine is slower). */
const SYNTHESIS_WAIT_MS = 90_000;

/** Short scripts: most of a synthesis is mastering, which takes longer the longer the audio. */
const REQUIRED_LINE = 'Use code POD.';
const SCRIPT = REQUIRED_LINE;
/** What a request for changes may send as the new script: one keeps the required line, one has it in other case. */
const SCRIPTS = { keeps: `Hi. ${REQUIRED_LINE}`, lacks: 'Hi, use code POD.' } as const;
const COMMENT = 'Slower on the code, please.';

const describe = describeBearer;

// ---------------------------------------------------------------------------
// The run's inventory, made on first use
// ---------------------------------------------------------------------------

async function made<T>(what: string, answer: Promise<Answer>): Promise<T> {
  const done = await answer;
  if (done.status !== 201 && done.status !== 200) throw violation(`setting up the ad inventory: ${what} must succeed`, done);
  return done.body as T;
}

/**
 * The review world of the run, made through the API the first time a step needs it: each inventory
 * network's advertiser, campaign and opted-in podcast (the bootstrap key); then, so that every run has
 * something to decide from its first step, each host grants consent through the link the operator had
 * mailed them, and the operator accepts an offer in A, whose revision 1 is synthesized and pending
 * approval (its review link read off the host's mailbox).
 */
async function reviewWorld(ctx: StepContext): Promise<ReviewWorld> {
  const { model, real } = ctx;
  if (model.review) return model.review;
  const boot = real.bootstrapToken;
  const networks = model.networks.filter((n) => INVENTORY_NETWORKS.includes(n.label));
  const inventories = await Promise.all(
    networks.map(async (network): Promise<Inventory> => {
      const n = network.id;
      const [advertiser, podcast] = await Promise.all([
        made<{ id: string }>('an advertiser', send(real, post(`/networks/${n}/advertisers`, boot, { name: `Acme ${model.tag}` }))),
        made<{ id: string }>(
          'a podcast',
          send(real, post(`/networks/${n}/podcasts`, boot, { name: `Night Owls ${model.tag}`, host_name: 'Sam Rivera' })),
        ),
      ]);
      const [campaign] = await Promise.all([
        made<{ id: string }>(
          'a campaign with a required line',
          send(
            real,
            post(`/networks/${n}/campaigns`, boot, {
              name: `Spring ${model.tag}`,
              advertiser_id: advertiser.id,
              script: SCRIPT,
              status: 'active',
              talking_points: ['Twenty percent off'],
              required_lines: [REQUIRED_LINE],
            }),
          ),
        ),
        made('the podcast’s opt-in', send(real, post(`/networks/${n}/podcasts/${podcast.id}/opt-in`, boot, {}))),
      ]);
      return {
        networkId: n,
        advertiserId: advertiser.id,
        campaignId: campaign.id,
        podcastId: podcast.id,
        hostName: 'Sam Rivera',
        hostEmail: `host-${network.label.toLowerCase()}-${model.tag}@hosts.example`,
        script: SCRIPT,
        requiredLine: REQUIRED_LINE,
      };
    }),
  );
  const review: ReviewWorld = { ...emptyReviewWorld(), inventories };
  model.review = review;

  // The opening: both hosts consent (the requests side by side, the grants in order), and the operator accepts an offer in A.
  const asked = await Promise.all(
    inventories.map((inventory) =>
      made<{ id: string; email_id: string }>(
        'an opening consent request',
        send(real, post(`/networks/${inventory.networkId}/podcasts/${inventory.podcastId}/voice-consents`, boot, consentRequest(inventory))),
      ),
    ),
  );
  const tokens = await Promise.all(asked.map((a) => real.mail.linkToken(a.email_id, 'vcl')));
  const consents = inventories.map((inventory, i) => addConsent(model, { id: asked[i]!.id, token: tokens[i]!, inventory }));
  for (const consent of consents) {
    await made('an opening grant', send(real, post('/voice-consents/current/grant', consent.token, { statement_version: 1 })));
    applyGrant(review, consent);
  }
  const first = inventories[0]!;
  const offer = await openOffer(ctx, first);
  const accepted = await made<{ creative_id: string }>(
    'the opening acceptance',
    send(real, post(`/networks/${first.networkId}/offers/${offer.id}/accept`, boot, {})),
  );
  const creative = applyAcceptOffer(review, offer, accepted.creative_id);
  await settle(ctx, false);
  opening.set(
    review,
    `the run’s opening: ${consents.map((c) => c.label).join(' and ')} granted, ${creative.label} ${creative.status} in network ${networkLabel(model, first.networkId)}`,
  );
  return review;
}

/** What the opening made, told after the first step that made it says what it does. */
const opening = new WeakMap<ReviewWorld, string>();

/** `ctx.say`, and the run's opening when this step made it. */
function say(ctx: StepContext, text: string): void {
  ctx.say(text);
  const review = ctx.model.review;
  const told = review && opening.get(review);
  if (told) {
    ctx.got(`(before it, ${told})`);
    opening.delete(review);
  }
}

const consentRequest = (inventory: Inventory) => ({ host_name: inventory.hostName, host_email: inventory.hostEmail, scope: 'all_campaigns' });

/** The inventory's open offer, or a new one the operator makes (the offer is not what the model tests: accepting it is). */
async function openOffer(ctx: StepContext, inventory: Inventory): Promise<Offer> {
  const review = ctx.model.review!;
  const open = review.offers.find((o) => o.podcastId === inventory.podcastId && !o.accepted);
  if (open) return open;
  const body = { campaign_id: inventory.campaignId, podcast_id: inventory.podcastId };
  const created = await made<{ id: string }>(
    'an offer',
    send(ctx.real, post(`/networks/${inventory.networkId}/offers`, ctx.real.bootstrapToken, body)),
  );
  const offer: Offer = { id: created.id, networkId: inventory.networkId, podcastId: inventory.podcastId, accepted: false };
  review.offers.push(offer);
  review.busyPodcast = inventory.podcastId;
  return offer;
}

// ---------------------------------------------------------------------------
// Picks
// ---------------------------------------------------------------------------

/**
 * A bearer for a network's path: a key that administers the target's network now (so that the run
 * gets somewhere), one that reads it but does not administer it (read_only, demoted), a key granted
 * that network whatever its role or standing now (removed, revoked with `anyKey`), any key, or a
 * link's token.
 */
interface NetworkBearerPick {
  kind: 'administrator' | 'reader' | 'near' | 'any' | 'reviewLink' | 'consentLink';
  actor: ActorPick;
  index: number;
}
const networkBearerPick: fc.Arbitrary<NetworkBearerPick> = fc.record({
  kind: fc.oneof(
    { arbitrary: fc.constant('administrator' as const), weight: 4 },
    { arbitrary: fc.constant('reader' as const), weight: 3 },
    { arbitrary: fc.constant('near' as const), weight: 2 },
    { arbitrary: fc.constant('any' as const), weight: 2 },
    { arbitrary: fc.constant('reviewLink' as const), weight: 1 },
    { arbitrary: fc.constant('consentLink' as const), weight: 1 },
  ),
  actor: actorPick,
  index: fc.nat(),
});

/** Keys granted the network (whatever their role or standing now) and super_user keys; live ones unless `anyKey`. */
function nearKeys(model: Model, pick: ActorPick, networkId: string): Key[] {
  return model.keys.filter((k) => (pick.anyKey || isLive(model, k)) && (k.superUser || networkId in k.granted));
}

/** Live keys that administer the network now. */
function administratorKeys(model: Model, networkId: string): Key[] {
  return model.keys.filter((k) => isLive(model, k) && isAdministrator(model, accessOf(model, k), networkId));
}

/** Live keys that read the network now (it is in their access) but do not administer it. */
function readerKeys(model: Model, networkId: string): Key[] {
  return model.keys.filter((k) => {
    const access = isLive(model, k) ? accessOf(model, k) : undefined;
    return access !== undefined && networkId in access.scopes && !isAdministrator(model, access, networkId);
  });
}

function pickKeyFor(model: Model, pick: ActorPick, kind: 'administrator' | 'reader' | 'near' | 'any', networkId: string): Key {
  const pools = { administrator: administratorKeys, reader: readerKeys, near: (m: Model, n: string) => nearKeys(m, pick, n), any: () => [] };
  const pool = pools[kind](model, networkId);
  return pool.length ? pickKey(model, pick, pool) : pickActor(model, pick);
}

function resolveNetworkBearer(model: Model, pick: NetworkBearerPick, networkId: string): Bearer {
  const review = model.review!;
  if (pick.kind === 'reviewLink' && review.links.length) return { kind: 'reviewLink', link: newest(review.links, pick.index) };
  if (pick.kind === 'consentLink' && review.consents.length) return { kind: 'consentLink', consent: newest(review.consents, pick.index) };
  const kind = pick.kind === 'reviewLink' || pick.kind === 'consentLink' ? 'administrator' : pick.kind;
  return { kind: 'key', key: pickKeyFor(model, pick.actor, kind, networkId) };
}

/**
 * A bearer for the review link's path: mostly a link that opens its revision (pending approval
 * when there is one), else a link that opens nothing (superseded, withdrawn), a consent link, or a key.
 */
interface LinkBearerPick {
  kind: 'open' | 'closed' | 'consentLink' | 'key';
  pending: boolean;
  index: number;
  actor: ActorPick;
}
const linkBearerPick: fc.Arbitrary<LinkBearerPick> = fc.record({
  kind: fc.oneof(
    { arbitrary: fc.constant('open' as const), weight: 6 },
    { arbitrary: fc.constant('closed' as const), weight: 2 },
    { arbitrary: fc.constant('consentLink' as const), weight: 1 },
    { arbitrary: fc.constant('key' as const), weight: 1 },
  ),
  pending: usually(4),
  index: recentPick,
  actor: actorPick,
});

function resolveLinkBearer(model: Model, pick: LinkBearerPick): Bearer {
  const review = model.review!;
  const open = review.links.filter((l) => linkOpens(review, l));
  const pending = open.filter((l) => review.creatives.find((c) => c.id === l.creativeId)!.status === 'pending_approval');
  const closed = review.links.filter((l) => !linkOpens(review, l));
  const links = pick.kind === 'open' ? (pick.pending && pending.length ? pending : open) : pick.kind === 'closed' ? closed : [];
  if (links.length) return { kind: 'reviewLink', link: newest(links, pick.index) };
  if ((pick.kind === 'open' || pick.kind === 'closed') && review.links.length) return { kind: 'reviewLink', link: newest(review.links, pick.index) };
  if (pick.kind === 'consentLink' && review.consents.length) return { kind: 'consentLink', consent: newest(review.consents, pick.index) };
  // A key on the host's path: an administrator's, most tellingly (of the newest creative's network).
  const last = review.creatives[review.creatives.length - 1];
  return { kind: 'key', key: pickKeyFor(model, pick.actor, 'administrator', last?.networkId ?? review.inventories[0]!.networkId) };
}

/** The host's consent path: the consent's own link mostly, else a review link or a key. */
interface HostBearerPick {
  kind: 'own' | 'reviewLink' | 'key';
  actor: ActorPick;
  index: number;
}
const hostBearerPick: fc.Arbitrary<HostBearerPick> = fc.record({
  kind: fc.oneof(
    { arbitrary: fc.constant('own' as const), weight: 6 },
    { arbitrary: fc.constant('reviewLink' as const), weight: 1 },
    { arbitrary: fc.constant('key' as const), weight: 1 },
  ),
  actor: actorPick,
  index: fc.nat(),
});

function resolveHostBearer(model: Model, pick: HostBearerPick, consent: VoiceConsent): Bearer {
  const review = model.review!;
  if (pick.kind === 'reviewLink' && review.links.length) return { kind: 'reviewLink', link: newest(review.links, pick.index) };
  if (pick.kind === 'key') return { kind: 'key', key: pickKeyFor(model, pick.actor, 'administrator', consent.networkId) };
  return { kind: 'consentLink', consent };
}

/** A podcast (its network's inventory); `busy`: the one of the newest consent or offer, so that consent and offers meet. */
interface InventoryPick {
  index: number;
  busy: boolean;
}
const inventoryPick: fc.Arbitrary<InventoryPick> = fc.record({ index: fc.nat(), busy: usually(3) });

function pickInventory(review: ReviewWorld, pick: InventoryPick): Inventory {
  if (pick.busy && review.busyPodcast) return inventoryOf(review, review.busyPodcast);
  return review.inventories[pick.index % review.inventories.length]!;
}

/** A consent, newest first; `fitting`: among those in the state the operation changes, when there are any. */
interface ConsentPick {
  index: number;
  fitting: boolean;
}
const consentPick: fc.Arbitrary<ConsentPick> = fc.record({ index: recentPick, fitting: usually(4) });

function pickConsent(review: ReviewWorld, pick: ConsentPick, fits: (c: VoiceConsent) => boolean): VoiceConsent {
  const fitting = review.consents.filter(fits);
  return newest(pick.fitting && fitting.length ? fitting : review.consents, pick.index);
}

/** A creative, newest first; `pending`: among those pending approval, when there are any. */
interface CreativePick {
  index: number;
  pending: boolean;
}
const creativePick: fc.Arbitrary<CreativePick> = fc.record({ index: recentPick, pending: usually(4) });

function pickCreative(review: ReviewWorld, pick: CreativePick): Creative {
  const pending = review.creatives.filter((c) => c.status === 'pending_approval');
  return newest(pick.pending && pending.length ? pending : review.creatives, pick.index);
}

const scriptPick = fc.oneof(
  { arbitrary: fc.constant('same' as const), weight: 3 },
  { arbitrary: fc.constant('keeps' as const), weight: 2 },
  { arbitrary: fc.constant('lacks' as const), weight: 1 },
);
const scriptOf = (choice: 'same' | 'keeps' | 'lacks') => (choice === 'same' ? undefined : SCRIPTS[choice]);

/** Steps that would synthesize (accept, request changes, a grant resuming creatives) stop being drawn past the run's budget. */
const mayStillSynthesize = (model: Readonly<Model>) => (model.review?.syntheses ?? 0) < MAX_SYNTHESES;
/** Before the run's review world is made (with a consent and a creative) every operation applies. */
const hasCreatives = (model: Readonly<Model>) => !model.review || model.review.creatives.length > 0;
const hasConsents = (model: Readonly<Model>) => !model.review || model.review.consents.length > 0;

// ---------------------------------------------------------------------------
// Synthesis: waited for, its review link read off the host's mailbox
// ---------------------------------------------------------------------------

/** Every creative the model has generating becomes pending approval, and its review link reaches its host. */
async function settle(ctx: StepContext, say = true): Promise<void> {
  const { model, real } = ctx;
  const review = model.review!;
  const generating = review.creatives.filter((c) => c.status === 'generating');
  if (!generating.length) return;
  const started = Date.now();
  const ids = generating.map((c) => c.id);
  const rows = await until(async () => {
    const found = await real.database<
      Array<{ id: string; status: string; review_token_hash: string | null; failure_reason: string | null }>
    >`select id, status, review_token_hash, failure_reason from creatives where id = any(${ids})`;
    return found.length === ids.length && found.every((r) => r.status !== 'generating') ? found : undefined;
  }, SYNTHESIS_WAIT_MS).catch((error: unknown) => {
    if (!(error instanceof Error) || !error.message.startsWith('timed out')) throw error;
    throw violation(`${generating.map((c) => c.label).join(', ')} still generating after ${SYNTHESIS_WAIT_MS / 1000} s`);
  });
  for (const creative of generating) {
    const row = rows.find((r) => r.id === creative.id)!;
    if (row.status !== 'pending_approval' || !row.review_token_hash) {
      throw violation(
        `${creative.label} must be synthesized and pending approval, with a review link; it is ${row.status}${row.failure_reason ? ` (${row.failure_reason})` : ''}`,
      );
    }
    const host = inventoryOf(review, creative.podcastId).hostEmail;
    const token = await real.mail.tokenTo(
      host,
      'crl',
      (t) => hashToken(t) === row.review_token_hash,
      `the review link of ${creative.label}, to its host`,
    );
    const link = applySynthesized(review, creative, token);
    review.syntheses += 1;
    if (say) ctx.got(`${creative.label} pending approval, ${link.label.split(' ')[0]} mailed to the host`);
  }
  real.stats.ms.synthesis += Date.now() - started;
}

// ---------------------------------------------------------------------------
// Consent
// ---------------------------------------------------------------------------

const requestConsent = command(2, {
  name: 'requestConsent',
  params: fc.record({ bearer: networkBearerPick, inventory: inventoryPick, where: foreignPick }),
  async perform(ctx, p) {
    const review = await reviewWorld(ctx);
    const { model, real } = ctx;
    const inventory = pickInventory(review, p.inventory);
    const network = homeOrForeign(model, inventory.networkId, p.where.foreign, p.where.index);
    const bearer = resolveNetworkBearer(model, p.bearer, network.id);
    say(
      ctx,
      `${describe(model, bearer)} asks the host of the podcast of ${networkLabel(model, inventory.networkId)} for consent, in network ${network.label}`,
    );
    const expectation = expectRequestConsent(model, bearer, network.id, inventory);
    const answer = await send(
      real,
      post(`/networks/${network.id}/podcasts/${inventory.podcastId}/voice-consents`, bearerToken(bearer), consentRequest(inventory)),
    );
    if (!judge(ctx, 'requestConsent', answer, expectation, 201)) return;
    const asked = answer.body as { id: string; status: string; email_id: string; token?: string };
    if (asked.status !== 'pending') throw violation('a new voice consent must be pending', answer);
    if (asked.token !== undefined) throw violation('a live deployment must not answer the consent link’s token', answer);
    const token = await real.mail.linkToken(asked.email_id, 'vcl');
    const consent = addConsent(model, { id: asked.id, token, inventory });
    review.busyPodcast = inventory.podcastId;
    ctx.got(consent.label);
  },
});

/** Grant or refuse, on the host's consent path. */
function hostDecision(name: 'grantConsent' | 'refuseConsent', weight: number): WeightedCommand {
  const verb = name === 'grantConsent' ? 'grant' : 'refuse';
  return command(weight, {
    name,
    params: fc.record({ bearer: hostBearerPick, consent: consentPick }),
    // A grant resumes the creatives awaiting consent: past the budget, only while none is.
    applicable: (model) =>
      hasConsents(model) &&
      (name === 'refuseConsent' || mayStillSynthesize(model) || !model.review?.creatives.some((c) => c.status === 'awaiting_consent')),
    async perform(ctx, p) {
      const review = await reviewWorld(ctx);
      const { model, real } = ctx;
      const consent = pickConsent(review, p.consent, (c) => c.status === 'pending');
      const bearer = resolveHostBearer(model, p.bearer, consent);
      say(ctx, `${describe(model, bearer)} ${verb}s${bearer.kind === 'consentLink' ? '' : ` (meaning ${describeConsent(consent)})`}`);
      const expectation = expectHostDecision(model, bearer);
      const answer = await send(real, post(`/voice-consents/current/${verb}`, bearerToken(bearer), { statement_version: 1 }));
      if (!judge(ctx, name, answer, expectation, 200) || bearer.kind !== 'consentLink') return;
      if (name === 'refuseConsent') return applyRefuse(bearer.consent);
      const resumed = applyGrant(review, bearer.consent);
      if (resumed.length) ctx.got(`resumes ${resumed.map((c) => c.label).join(', ')}`);
      await settle(ctx);
    },
  });
}

const grantConsent = hostDecision('grantConsent', 3);
const refuseConsent = hostDecision('refuseConsent', 1);

function withdrawn(ctx: StepContext, creatives: Creative[]): void {
  if (creatives.length) ctx.got(`withdraws ${creatives.map((c) => c.label).join(', ')}`);
}

const revokeConsentByHost = command(2, {
  name: 'revokeConsentByHost',
  params: fc.record({ bearer: hostBearerPick, consent: consentPick }),
  applicable: hasConsents,
  async perform(ctx, p) {
    const review = await reviewWorld(ctx);
    const { model, real } = ctx;
    const consent = pickConsent(review, p.consent, (c) => c.status === 'granted');
    const bearer = resolveHostBearer(model, p.bearer, consent);
    say(ctx, `${describe(model, bearer)} revokes${bearer.kind === 'consentLink' ? '' : ` (meaning ${describeConsent(consent)})`}`);
    const expectation = expectHostRevoke(model, bearer);
    const answer = await send(real, post('/voice-consents/current/revoke', bearerToken(bearer), {}));
    if (judge(ctx, 'revokeConsentByHost', answer, expectation, 200) && bearer.kind === 'consentLink') {
      withdrawn(ctx, applyConsentRevoke(review, bearer.consent, 'host'));
    }
  },
});

const revokeConsentByAdmin = command(2, {
  name: 'revokeConsentByAdmin',
  params: fc.record({ bearer: networkBearerPick, consent: consentPick, where: foreignPick }),
  applicable: hasConsents,
  async perform(ctx, p) {
    const review = await reviewWorld(ctx);
    const { model, real } = ctx;
    const consent = pickConsent(review, p.consent, (c) => c.status === 'granted' || c.status === 'pending');
    const network = homeOrForeign(model, consent.networkId, p.where.foreign, p.where.index);
    const bearer = resolveNetworkBearer(model, p.bearer, consent.networkId);
    say(ctx, `${describe(model, bearer)} revokes ${describeConsent(consent)} in network ${network.label}`);
    const expectation = expectAdminRevoke(model, bearer, network.id, consent);
    const answer = await send(real, post(`/networks/${network.id}/voice-consents/${consent.id}/revoke`, bearerToken(bearer), {}));
    if (judge(ctx, 'revokeConsentByAdmin', answer, expectation, 200)) withdrawn(ctx, applyConsentRevoke(review, consent, 'administrator'));
  },
});

// ---------------------------------------------------------------------------
// Offers
// ---------------------------------------------------------------------------

const acceptOffer = command(3, {
  name: 'acceptOffer',
  params: fc.record({ bearer: networkBearerPick, inventory: inventoryPick, where: foreignPick }),
  applicable: mayStillSynthesize,
  async perform(ctx, p) {
    const review = await reviewWorld(ctx);
    const { model, real } = ctx;
    const inventory = pickInventory(review, p.inventory);
    const offer = await openOffer(ctx, inventory);
    const network = homeOrForeign(model, inventory.networkId, p.where.foreign, p.where.index);
    const bearer = resolveNetworkBearer(model, p.bearer, inventory.networkId);
    say(ctx, `${describe(model, bearer)} accepts an offer of network ${networkLabel(model, inventory.networkId)} in network ${network.label}`);
    const expectation = expectAcceptOffer(model, bearer, network.id, offer);
    const answer = await send(real, post(`/networks/${network.id}/offers/${offer.id}/accept`, bearerToken(bearer), {}));
    if (!judge(ctx, 'acceptOffer', answer, expectation, 200)) return;
    const creative = applyAcceptOffer(review, offer, (answer.body as { creative_id: string }).creative_id);
    ctx.got(describeCreative(creative));
    await settle(ctx);
  },
});

// ---------------------------------------------------------------------------
// Review: approve, request changes — an administrator's key, or the host's review link
// ---------------------------------------------------------------------------

/** A decision's answer through the network's path is the creative: it shows what the model now says. */
function checkDecided(ctx: StepContext, creative: Creative, answer: Answer): void {
  checkCreativeView(ctx.model, creative, answer.body as CreativeView, answer, 'the answer');
}

const approveByAdmin = command(3, {
  name: 'approveByAdmin',
  params: fc.record({ bearer: networkBearerPick, creative: creativePick, where: foreignPick }),
  applicable: hasCreatives,
  async perform(ctx, p) {
    const review = await reviewWorld(ctx);
    const { model, real } = ctx;
    const creative = pickCreative(review, p.creative);
    const network = homeOrForeign(model, creative.networkId, p.where.foreign, p.where.index);
    const bearer = resolveNetworkBearer(model, p.bearer, creative.networkId);
    say(ctx, `${describe(model, bearer)} approves ${describeCreative(creative)} in network ${network.label}`);
    const expectation = expectAdminDecision(model, bearer, network.id, creative);
    const answer = await send(real, post(`/networks/${network.id}/creatives/${creative.id}/approve`, bearerToken(bearer), {}));
    if (!judge(ctx, 'approveByAdmin', answer, expectation, 200)) return;
    applyApprove(creative, 'administrator');
    checkDecided(ctx, creative, answer);
  },
});

const requestChangesByAdmin = command(2, {
  name: 'requestChangesByAdmin',
  params: fc.record({ bearer: networkBearerPick, creative: creativePick, where: foreignPick, script: scriptPick }),
  applicable: (model) => hasCreatives(model) && mayStillSynthesize(model),
  async perform(ctx, p) {
    const review = await reviewWorld(ctx);
    const { model, real } = ctx;
    const creative = pickCreative(review, p.creative);
    const network = homeOrForeign(model, creative.networkId, p.where.foreign, p.where.index);
    const bearer = resolveNetworkBearer(model, p.bearer, creative.networkId);
    const script = scriptOf(p.script);
    say(
      ctx,
      `${describe(model, bearer)} requests changes of ${describeCreative(creative)} in network ${network.label}${script ? `, script ${p.script} the line` : ''}`,
    );
    const expectation = expectAdminDecision(model, bearer, network.id, creative, { script });
    const body = { comment: COMMENT, ...(script ? { script } : {}) };
    const answer = await send(real, post(`/networks/${network.id}/creatives/${creative.id}/request-changes`, bearerToken(bearer), body));
    if (!judge(ctx, 'requestChangesByAdmin', answer, expectation, 201)) return;
    const next = applyRequestChanges(review, creative, { by: 'administrator', comment: COMMENT, script, newId: (answer.body as { id: string }).id });
    checkCreativeView(model, next, answer.body as CreativeView, answer, 'the answer (the new revision)');
    ctx.got(describeCreative(next));
    await settle(ctx);
  },
});

const approveByLink = command(3, {
  name: 'approveByLink',
  params: fc.record({ bearer: linkBearerPick }),
  applicable: hasCreatives,
  async perform(ctx, p) {
    const review = await reviewWorld(ctx);
    const { model, real } = ctx;
    const bearer = resolveLinkBearer(model, p.bearer);
    say(ctx, `${describe(model, bearer)} approves through the review link’s page`);
    const expectation = expectLinkDecision(model, bearer);
    const answer = await send(real, post('/creative-reviews/current/approve', bearerToken(bearer), {}));
    if (!judge(ctx, 'approveByLink', answer, expectation, 200) || bearer.kind !== 'reviewLink') return;
    const creative = review.creatives.find((c) => c.id === bearer.link.creativeId)!;
    applyApprove(creative, 'host');
    const shown = answer.body as { reviewed_by?: string };
    if (shown.reviewed_by !== 'host') throw violation(`approving through ${bearer.link.label} must answer the review, by the host`, answer);
  },
});

const requestChangesByLink = command(2, {
  name: 'requestChangesByLink',
  params: fc.record({ bearer: linkBearerPick, script: scriptPick }),
  applicable: (model) => hasCreatives(model) && mayStillSynthesize(model),
  async perform(ctx, p) {
    const review = await reviewWorld(ctx);
    const { model, real } = ctx;
    const bearer = resolveLinkBearer(model, p.bearer);
    const script = scriptOf(p.script);
    say(ctx, `${describe(model, bearer)} requests changes through the review link’s page${script ? `, script ${p.script} the line` : ''}`);
    const expectation = expectLinkDecision(model, bearer, { script });
    const body = { comment: COMMENT, ...(script ? { script } : {}) };
    const answer = await send(real, post('/creative-reviews/current/request-changes', bearerToken(bearer), body));
    if (!judge(ctx, 'requestChangesByLink', answer, expectation, 200) || bearer.kind !== 'reviewLink') return;
    const creative = review.creatives.find((c) => c.id === bearer.link.creativeId)!;
    const shown = answer.body as { reviewed_by?: string; comment?: string };
    if (shown.reviewed_by !== 'host' || shown.comment !== COMMENT) {
      throw violation(`requesting changes through ${bearer.link.label} must answer the review, by the host, with the comment`, answer);
    }
    // The new revision is the offer's creative now: read its id there, as the host's page does from the answer.
    const offer = await send(real, { method: 'GET', path: `/networks/${creative.networkId}/offers/${creative.offerId}`, token: real.bootstrapToken });
    const next = applyRequestChanges(review, creative, {
      by: 'host',
      comment: COMMENT,
      script,
      newId: (offer.body as { creative_id: string }).creative_id,
    });
    ctx.got(describeCreative(next));
    await settle(ctx);
  },
});

// ---------------------------------------------------------------------------
// Hearing it: the audio
// ---------------------------------------------------------------------------

const audioByKey = command(1, {
  name: 'audioByKey',
  params: fc.record({ bearer: networkBearerPick, creative: fc.record({ index: recentPick, pending: usually(3) }), where: foreignPick }),
  applicable: hasCreatives,
  async perform(ctx, p) {
    const review = await reviewWorld(ctx);
    const { model, real } = ctx;
    const creative = pickCreative(review, p.creative);
    const network = homeOrForeign(model, creative.networkId, p.where.foreign, p.where.index);
    const bearer = resolveNetworkBearer(model, p.bearer, creative.networkId);
    say(ctx, `${describe(model, bearer)} fetches the audio of ${describeCreative(creative)} in network ${network.label}`);
    const answer = await send(real, { method: 'GET', path: `/networks/${network.id}/creatives/${creative.id}/audio`, token: bearerToken(bearer) });
    judge(ctx, 'audioByKey', answer, expectAdminAudio(model, bearer, network.id, creative), 200);
  },
});

const audioByLink = command(1, {
  name: 'audioByLink',
  params: fc.record({ bearer: linkBearerPick }),
  applicable: hasCreatives,
  async perform(ctx, p) {
    await reviewWorld(ctx);
    const { model, real } = ctx;
    const bearer = resolveLinkBearer(model, p.bearer);
    say(ctx, `${describe(model, bearer)} fetches the audio through the review link’s page`);
    const answer = await send(real, { method: 'GET', path: '/creative-reviews/current/audio', token: bearerToken(bearer) });
    judge(ctx, 'audioByLink', answer, expectLinkAudio(model, bearer), 200);
  },
});

/** The consent and review operations, by name (CREDENTIALS_MODEL_COMMANDS selects among them too). */
export const REVIEW_COMMANDS: WeightedCommand[] = [
  requestConsent,
  grantConsent,
  refuseConsent,
  revokeConsentByHost,
  revokeConsentByAdmin,
  acceptOffer,
  approveByAdmin,
  requestChangesByAdmin,
  approveByLink,
  requestChangesByLink,
  audioByKey,
  audioByLink,
];
