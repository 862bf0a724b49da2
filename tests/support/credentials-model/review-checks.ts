/**
 * After every step of a run that made voice consents and creatives (review-model.ts): what the
 * service shows of them, over HTTP, equals the model — every consent's status and who revoked it,
 * every revision's status, number, predecessor, consent and review, each accepted offer's newest
 * revision and its list of revisions, and which links open what: every review link the host was
 * ever mailed opens exactly its revision while the model says it does (404 otherwise), and every
 * consent link opens its consent.
 */
import { inBatches, send, violation, type Answer, type Real } from './http';
import type { Model } from './model';
import { consentById, creativeById, linkOpens, newestRevision, type Creative } from './review-model';

export interface CreativeView {
  id: string;
  status: string;
  revision: number;
  previous_revision_id: string | null;
  synthetic_voice: boolean;
  voice_consent_id: string | null;
  review: { reviewed_at: string; reviewed_by: string; comment: string | null } | null;
  audio_url: string | null;
  script: string;
}

interface ConsentView {
  id: string;
  status: string;
  revoked_by: string | null;
}

interface ReviewLinkView {
  creative: { id: string; revision: number; status: string };
}

function differs(what: string, seen: unknown, modelled: unknown, answer: Answer): void {
  if (JSON.stringify(seen) !== JSON.stringify(modelled)) {
    throw violation(`${what} is ${JSON.stringify(seen)}; the model says ${JSON.stringify(modelled)}`, answer);
  }
}

/** A creative's view agrees with the model (the answer of a decision, or a read). */
export function checkCreativeView(model: Model, creative: Creative, view: CreativeView, answer: Answer, where: string): void {
  const review = model.review!;
  const what = (field: string) => `${where}: ${creative.label}'s ${field}`;
  differs(what('status'), view.status, creative.status, answer);
  differs(what('revision'), view.revision, creative.revision, answer);
  differs(what('previous_revision_id'), view.previous_revision_id, creative.previousId, answer);
  differs(what('synthetic_voice'), view.synthetic_voice, true, answer);
  const consent = creative.consentId ? consentById(review, creative.consentId) : undefined;
  differs(what(`voice_consent_id (${consent?.label ?? 'none'})`), view.voice_consent_id, creative.consentId, answer);
  differs(
    what('review'),
    view.review && { by: view.review.reviewed_by, comment: view.review.comment },
    creative.review ? { by: creative.review.by, comment: creative.review.comment } : null,
    answer,
  );
  differs(what('script'), view.script, creative.script, answer);
  if ((view.audio_url !== null) !== (creative.status === 'approved')) {
    throw violation(
      `${where}: ${creative.label} (${creative.status}) shows audio_url ${view.audio_url}: only an approved revision offers audio`,
      answer,
    );
  }
}

export async function checkReviewStates(model: Model, real: Real): Promise<void> {
  const review = model.review!;
  const token = real.bootstrapToken;
  const get = (path: string, bearer = token) => send(real, { method: 'GET', path, token: bearer });
  const work: Array<() => Promise<void>> = [];

  for (const creative of review.creatives) {
    work.push(async () => {
      const answer = await get(`/networks/${creative.networkId}/creatives/${creative.id}`);
      if (answer.status !== 200) throw violation(`GET ${creative.label} must answer 200`, answer);
      checkCreativeView(model, creative, answer.body as CreativeView, answer, `GET ${creative.label}`);
    });
  }
  for (const offer of review.offers.filter((o) => o.accepted)) {
    const newest = newestRevision(review, offer.id)!;
    work.push(async () => {
      const answer = await get(`/networks/${offer.networkId}/offers/${offer.id}`);
      if (answer.status !== 200) throw violation(`GET the offer of ${newest.label} must answer 200`, answer);
      differs(`the offer of ${newest.label}: its creative_id`, (answer.body as { creative_id: string }).creative_id, newest.id, answer);
    });
    work.push(async () => {
      const answer = await get(`/networks/${offer.networkId}/creatives/${newest.id}/revisions`);
      if (answer.status !== 200) throw violation(`GET the revisions of ${newest.label} must answer 200`, answer);
      const items = (answer.body as { items: Array<{ id: string; revision: number }> }).items;
      const modelled = review.creatives.filter((c) => c.offerId === offer.id);
      differs(
        `the revisions of ${newest.label}`,
        items.map((i) => [i.id, i.revision]),
        modelled.map((c) => [c.id, c.revision]),
        answer,
      );
    });
  }
  for (const consent of review.consents) {
    work.push(async () => {
      const answer = await get(`/networks/${consent.networkId}/voice-consents/${consent.id}`);
      if (answer.status !== 200) throw violation(`GET ${consent.label} must answer 200`, answer);
      const view = answer.body as ConsentView;
      differs(`${consent.label}'s status`, view.status, consent.status, answer);
      differs(`${consent.label}'s revoked_by`, view.revoked_by, consent.revokedBy ?? null, answer);
    });
    work.push(async () => {
      // The host's link opens its consent until it ends (30 days), whatever its state.
      const answer = await get('/voice-consents/current', consent.token);
      if (answer.status !== 200) throw violation(`the consent link of ${consent.label} must open it (200)`, answer);
      const view = answer.body as ConsentView;
      differs(`the consent link of ${consent.label}: id`, view.id, consent.id, answer);
      differs(`the consent link of ${consent.label}: status`, view.status, consent.status, answer);
    });
  }
  for (const link of review.links) {
    work.push(async () => {
      const answer = await get('/creative-reviews/current', link.token);
      const creative = creativeById(review, link.creativeId);
      if (!linkOpens(review, link)) {
        if (answer.status !== 404) throw violation(`${link.label} of ${creative.label} (${creative.status}) must open nothing (404)`, answer);
        return;
      }
      if (answer.status !== 200) throw violation(`${link.label} must open ${creative.label} (${creative.status}): 200`, answer);
      const view = (answer.body as ReviewLinkView).creative;
      differs(
        `${link.label}: the revision it opens`,
        [view.id, view.revision, view.status],
        [creative.id, creative.revision, creative.status],
        answer,
      );
    });
  }
  await inBatches(work, 16, (check) => check());
  real.stats.checks += work.length;
}
