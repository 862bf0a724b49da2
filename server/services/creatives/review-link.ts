import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { creatives } from '@/db/schema';
import { REVIEW_LINK_DAYS } from '@/domain/creative-review';
import { generateSecretToken, hashToken } from '@/server/auth/tokens';
import { config } from '@/server/config';
import { queueEmail } from '@/server/services/mail/queue-email';
import { creativeReviewEmail } from '@/server/services/mail/templates';
import type { VoiceConsentRow } from '@/server/services/voice-consents/find-voice-consents';
import type { CreativeRow } from './complete-creative';
import { findReviewParties } from './review-view';

export { REVIEW_LINK_DAYS };

/** Where the host reviews: the console's page, the token in the fragment (browsers send no fragment to a server). */
export const creativeReviewLink = (token: string) => `${config().publicUrl}/console/creative-review#token=${token}`;

/**
 * Whether a revision's review link still opens it: until its end, and while no later revision
 * replaces it (a request for changes supersedes the revision it was made to, in its transaction).
 * A decided (approved) revision's link still reads; its decisions are then 409s.
 */
export function reviewLinkWorks(creative: Pick<CreativeRow, 'status' | 'reviewLinkExpiresAt'>, now = Date.now()): boolean {
  return linkInTime(creative, now) && creative.status !== 'changes_requested';
}

/** Whether the link ended only because changes were requested of its revision (not by its time running out). */
export function reviewLinkSuperseded(creative: Pick<CreativeRow, 'status' | 'reviewLinkExpiresAt'>, now = Date.now()): boolean {
  return linkInTime(creative, now) && creative.status === 'changes_requested';
}

const linkInTime = (creative: Pick<CreativeRow, 'reviewLinkExpiresAt'>, now: number) =>
  creative.reviewLinkExpiresAt !== null && creative.reviewLinkExpiresAt.getTime() > now;

/**
 * A revision's audio is ready: open its review — no decision yet, a new review link (`crl_…`, only
 * its SHA-256 stored) — and email the link to the host of the consent it was made under, in the
 * caller's transaction: the email is queued in the network's mail queue and sent exactly when the
 * revision's audio commits. The token exists only here and in that email (sealed in the outbox);
 * it is never logged. Returns it.
 */
export async function openReview({ tx, creative, consent }: { tx: Tx; creative: CreativeRow; consent: VoiceConsentRow }): Promise<string> {
  const token = generateSecretToken('crl');
  const [opened] = await tx
    .update(creatives)
    .set({
      reviewTokenHash: hashToken(token),
      reviewLinkExpiresAt: sql`now() + make_interval(days => ${REVIEW_LINK_DAYS})`,
      // New audio, a new review: a decision on audio withdrawn with a consent does not carry over.
      reviewedAt: null,
      reviewedBy: null,
      reviewedByKeyId: null,
      reviewComment: null,
    })
    .where(and(eq(creatives.networkId, creative.networkId), eq(creatives.id, creative.id)))
    .returning();
  const parties = await findReviewParties({ db: tx, creative: opened! });
  await queueEmail({
    tx,
    kind: 'creative_review',
    to: consent.hostEmail,
    queue: creative.networkId,
    message: creativeReviewEmail({
      hostName: consent.hostName,
      networkName: parties.networkName,
      podcastName: parties.podcastName,
      advertiserName: parties.campaign.advertiserName,
      campaignName: parties.campaign.name,
      revision: opened!.revision,
      linkExpiresAt: opened!.reviewLinkExpiresAt!,
      link: creativeReviewLink(token),
    }),
  });
  return token;
}
