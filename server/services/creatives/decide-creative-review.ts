import { and, eq, gt, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Tx } from '@/db/client';
import { newId } from '@/db/ids';
import { creativeAudio, creatives, offers } from '@/db/schema';
import { MAX_CREATIVE_REVISIONS, missingRequiredLine } from '@/domain/creative-review';
import type { CreativeReviewer } from '@/domain/statuses';
import { badRequest, conflict, notFound } from '@/server/errors';
import { recordAudit } from '@/server/services/audit/record-audit';
import { findCampaign } from '@/server/services/campaigns/find-campaigns';
import { recordEvent } from '@/server/services/events/record-event';
import { updateVersioned } from '@/server/services/optimistic-lock';
import { audioUrl } from './audio-url';
import type { CreativeRow } from './complete-creative';
import { lockPodcast, queueSynthesis, synthesisStart } from './consent-gate';
import { findCreative } from './find-creatives';

/**
 * Who decides on a revision: the host, through the revision's review link (the row as the link's
 * gate read it), or an administrator on the host's behalf, recorded with their key.
 */
export type Reviewer = { host: true } | { host: false; actorKeyId: string };

/** The host's review link no longer opens the revision: as for a token that never was (404). */
export const reviewLinkGone = () => notFound('Creative review link');

const linkInTime = (creative: CreativeRow) => creative.reviewLinkExpiresAt !== null && creative.reviewLinkExpiresAt.getTime() > Date.now();

const reviewerOf = (by: Reviewer): CreativeReviewer => (by.host ? 'host' : 'administrator');

function assertPendingApproval(creative: CreativeRow): void {
  if (creative.status !== 'pending_approval') {
    throw conflict(`This revision is ${creative.status}: only a revision pending approval can be approved or sent back for changes.`);
  }
}

/**
 * The conditional update every decision is (compare-and-set): it changes the revision only while it
 * is still pending approval — and, for the host, while their link still opens it — so of two
 * decisions racing on one revision exactly one wins. The loser is told the state it found (409), or
 * 404 when the host's link ended meanwhile (withdrawn with the consent, or past its end).
 */
async function compareAndSet({
  tx,
  creative,
  by,
  set,
}: {
  tx: Tx;
  creative: CreativeRow;
  by: Reviewer;
  set: PgUpdateSetSource<typeof creatives>;
}): Promise<CreativeRow> {
  const [row] = await updateVersioned({
    tx,
    table: creatives,
    networkId: creative.networkId,
    set: {
      ...set,
      reviewedAt: sql`now()`,
      reviewedBy: reviewerOf(by),
      reviewedByKeyId: by.host ? null : by.actorKeyId,
    },
    where: and(
      eq(creatives.id, creative.id),
      eq(creatives.status, 'pending_approval'),
      // The host decides on the audio their link opened: a review reopened since (new audio, a new link) is not theirs to decide.
      by.host ? and(eq(creatives.reviewTokenHash, creative.reviewTokenHash ?? ''), gt(creatives.reviewLinkExpiresAt, sql`now()`)) : undefined,
    ),
  }).returning();
  if (row) return row;
  const now = await findCreative({ db: tx, networkId: creative.networkId, id: creative.id });
  if (!now) throw notFound('Creative');
  // The link itself gone (withdrawn with the consent, or past its end) is a 404; a decision that came first is a 409.
  if (by.host && (now.reviewTokenHash !== creative.reviewTokenHash || !linkInTime(now))) throw reviewLinkGone();
  throw conflict(`This revision was ${now.status} in the meantime: read it again.`);
}

const eventParties = (creative: CreativeRow) => ({
  creative_id: creative.id,
  offer_id: creative.offerId,
  campaign_id: creative.campaignId,
  podcast_id: creative.podcastId,
  revision: creative.revision,
});

/**
 * Approve a revision pending approval: → approved, recorded (when, by the host or an administrator
 * with their key), with `creative.approved` and the audit row on the same transaction. Its audio is
 * from then on offered for delivery (while a consent still covers it). Anything but pending
 * approval → 409 naming the state; of two decisions racing, exactly one wins.
 */
export async function approveCreative({ tx, creative, by }: { tx: Tx; creative: CreativeRow; by: Reviewer }): Promise<CreativeRow> {
  assertPendingApproval(creative);
  const approved = await compareAndSet({ tx, creative, by, set: { status: 'approved', reviewComment: null } });
  await recordEvent({
    tx,
    networkId: approved.networkId,
    type: 'creative.approved',
    data: { ...eventParties(approved), reviewed_by: reviewerOf(by), audio_url: audioUrl(approved) },
  });
  await recordAudit({
    tx,
    networkId: approved.networkId,
    actorKeyId: by.host ? null : by.actorKeyId,
    action: 'creative.approved',
    targetType: 'creative',
    targetId: approved.id,
    data: { by: reviewerOf(by), offer_id: approved.offerId, revision: approved.revision },
  });
  return approved;
}

/** A script that lacks one of the campaign's required lines word for word is a 400 naming the line. */
export function assertRequiredLines(script: string, requiredLines: readonly string[], path: string): void {
  const missing = missingRequiredLine(script, requiredLines);
  if (missing === undefined) return;
  throw badRequest(`The script lacks the campaign's required line “${missing}”: it must be read word for word.`, [
    { path, message: `Missing the required line: “${missing}”` },
  ]);
}

export interface ChangesRequested {
  /** The revision sent back: changes_requested, with the review. */
  previous: CreativeRow;
  /** Revision n + 1: generating under the consent that covers it now, or awaiting one. */
  revision: CreativeRow;
}

/**
 * Request changes to a revision pending approval: it becomes changes_requested with the review
 * (the comment, when, who), and revision n + 1 is made as a new creative of the same offer — the
 * new script, or the old one kept — through the consent gate (synthesisStart, queueSynthesis) like
 * any new creative; the offer's `creative_id` points to it. The old revision's audio, which nothing
 * may serve any more, is deleted. `creative.changes_requested` and the audit row commit with it.
 *
 * Refused: anything but pending approval (409 naming the state), the MAX_CREATIVE_REVISIONS-th
 * revision (409), a script lacking a required line of the campaign (400 naming it).
 *
 * Locks in the order of consent-gate.ts — the podcast, the campaign (its required lines hold until
 * commit), the covering consent (synthesisStart), then the revision (the compare-and-set) — so a
 * grant either commits before this reads the consent or waits and then sees the new revision; two
 * decisions on one revision queue on the podcast and the second finds it decided (409).
 */
export async function requestCreativeChanges({
  tx,
  creative,
  by,
  comment,
  script,
}: {
  tx: Tx;
  creative: CreativeRow;
  by: Reviewer;
  comment: string;
  /** The new script; undefined keeps the revision's. */
  script: string | undefined;
}): Promise<ChangesRequested> {
  assertPendingApproval(creative);
  if (creative.revision >= MAX_CREATIVE_REVISIONS) {
    throw conflict(
      `This is revision ${creative.revision}, the last one a creative may have (${MAX_CREATIVE_REVISIONS}): approve it, or make a new offer.`,
    );
  }
  const { networkId, podcastId, campaignId } = creative;
  await lockPodcast({ tx, networkId, podcastId });
  const campaign = await findCampaign({ db: tx, networkId, campaignId, lock: 'share' });
  if (!campaign) throw notFound('Campaign');
  const nextScript = script ?? creative.script;
  assertRequiredLines(nextScript, campaign.requiredLines, 'script');
  const start = await synthesisStart({ tx, networkId, podcastId, campaignId });

  const previous = await compareAndSet({ tx, creative, by, set: { status: 'changes_requested', reviewComment: comment } });
  const [revision] = await tx
    .insert(creatives)
    .values({
      id: newId('creative'),
      networkId,
      offerId: previous.offerId,
      campaignId,
      podcastId,
      revision: previous.revision + 1,
      previousRevisionId: previous.id,
      script: nextScript,
      voice: previous.voice,
      ...start,
    })
    .returning();
  await updateVersioned({ tx, table: offers, networkId, set: { creativeId: revision!.id }, where: eq(offers.id, previous.offerId) });
  await tx.delete(creativeAudio).where(and(eq(creativeAudio.networkId, networkId), eq(creativeAudio.creativeId, previous.id)));
  await queueSynthesis({ tx, creative: revision! });

  await recordEvent({
    tx,
    networkId,
    type: 'creative.changes_requested',
    data: { ...eventParties(previous), reviewed_by: reviewerOf(by), comment, new_creative_id: revision!.id, new_revision: revision!.revision },
  });
  await recordAudit({
    tx,
    networkId,
    actorKeyId: by.host ? null : by.actorKeyId,
    action: 'creative.changes_requested',
    targetType: 'creative',
    targetId: previous.id,
    data: {
      by: reviewerOf(by),
      offer_id: previous.offerId,
      revision: previous.revision,
      comment,
      script_changed: script !== undefined && script !== creative.script,
      new_creative_id: revision!.id,
    },
  });
  return { previous, revision: revision! };
}
