import { and, asc, eq, exists, inArray, lte, sql } from 'drizzle-orm';
import type { Database, Queryable, Tx } from '@/db/client';
import { campaigns, creativeAudio, creatives, podcasts, voiceConsents } from '@/db/schema';
import { config } from '@/server/config';
import { enqueueJob } from '@/server/jobs/enqueue';
import { coveringConsent, findVoiceConsent, type VoiceConsentRow } from '@/server/services/voice-consents/find-voice-consents';
import { updateVersioned } from '@/server/services/optimistic-lock';
import type { CreativeRow } from './complete-creative';

/**
 * The one gate between a creative and the host's synthesized voice (docs/creative-review.md): a
 * creative is synthesized, completed and offered only under a granted consent that covers its
 * advertiser at that moment. Every path goes through here — accept, retry, a new revision, the
 * synthesis job at its start and at its commit, a grant and a revocation.
 *
 * Lock order, everywhere: podcast → voice consent → creative. Accept and a grant lock the podcast
 * first (FOR NO KEY UPDATE), so a grant either commits before an accept reads the consent (the
 * accept sees it) or waits for the accept to commit (the grant's sweep sees the new creative): a
 * creative is never left awaiting a consent that was granted. Synthesis share-locks the consent it
 * commits under, so a revocation waits for it and then withdraws what it made.
 */

/** How many times the synthesis job runs before the creative is failed (SYNTH_JOB_MAX_ATTEMPTS, default 5). */
export function synthesisAttempts(): number {
  return config().SYNTH_JOB_MAX_ATTEMPTS;
}

async function advertiserOf(tx: Queryable, networkId: string, campaignId: string): Promise<string> {
  const [campaign] = await tx
    .select({ advertiserId: campaigns.advertiserId })
    .from(campaigns)
    .where(and(eq(campaigns.networkId, networkId), eq(campaigns.id, campaignId)));
  return campaign!.advertiserId;
}

/**
 * The consent covering a creative of `campaignId` on `podcastId` now, null when none; share-locked
 * until the transaction ends unless `lock` is false (a read that decides nothing).
 */
export async function consentNow({
  tx,
  networkId,
  podcastId,
  campaignId,
  lock = true,
}: {
  tx: Queryable;
  networkId: string;
  podcastId: string;
  campaignId: string;
  lock?: boolean;
}): Promise<VoiceConsentRow | null> {
  const advertiserId = await advertiserOf(tx, networkId, campaignId);
  return coveringConsent({ tx, networkId, podcastId, advertiserId, at: 'now', ...(lock ? { lock: 'share' as const } : {}) });
}

/** Where a creative starts: generating under the consent that covers it, else awaiting one. */
export type SynthesisStart = { status: 'generating'; voiceConsentId: string } | { status: 'awaiting_consent'; voiceConsentId: null };

export async function synthesisStart(input: { tx: Tx; networkId: string; podcastId: string; campaignId: string }): Promise<SynthesisStart> {
  const consent = await consentNow(input);
  return consent ? { status: 'generating', voiceConsentId: consent.id } : { status: 'awaiting_consent', voiceConsentId: null };
}

/** Queue the synthesis of a creative that starts generating, in the caller's transaction. */
export async function queueSynthesis({ tx, creative }: { tx: Tx; creative: Pick<CreativeRow, 'id' | 'networkId' | 'status'> }): Promise<void> {
  if (creative.status !== 'generating') return;
  await enqueueJob(tx, 'synthesize-creative', { creativeId: creative.id, networkId: creative.networkId }, { maxAttempts: synthesisAttempts() });
}

/**
 * The first lock of the order above: the podcast row, as accept locks it (brand-safety.ts), so a
 * grant, an accept and a request for changes on one podcast queue.
 */
export async function lockPodcast({ tx, networkId, podcastId }: { tx: Tx; networkId: string; podcastId: string }): Promise<void> {
  await tx
    .select({ id: podcasts.id })
    .from(podcasts)
    .where(and(eq(podcasts.networkId, networkId), eq(podcasts.id, podcastId)))
    .for('no key update');
}

/** Creatives of the podcast whose advertiser the consent covers (all, for `all_campaigns`). */
function coveredBy(consent: VoiceConsentRow) {
  if (consent.scope === 'all_campaigns') return undefined;
  return inArray(
    creatives.campaignId,
    sql`(select ${campaigns.id} from ${campaigns} where ${campaigns.networkId} = ${consent.networkId} and ${inArray(campaigns.advertiserId, consent.advertiserIds)})`,
  );
}

/**
 * A consent was granted: the podcast's creatives awaiting one that it covers start generating
 * under it, their jobs queued in the grant's transaction. Returns how many.
 */
export async function resumeAwaitingCreatives({ tx, consent }: { tx: Tx; consent: VoiceConsentRow }): Promise<number> {
  const resumed = await tx
    .update(creatives)
    .set({
      status: 'generating',
      voiceConsentId: consent.id,
      attempts: 0,
      failureReason: null,
      version: sql`${creatives.version} + 1`,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(creatives.networkId, consent.networkId),
        eq(creatives.podcastId, consent.podcastId),
        eq(creatives.status, 'awaiting_consent'),
        coveredBy(consent),
      ),
    )
    .returning({ id: creatives.id, networkId: creatives.networkId, status: creatives.status });
  for (const creative of resumed) await queueSynthesis({ tx, creative });
  return resumed.length;
}

/**
 * What a creative keeps when it goes back to awaiting consent: no audio, no review link or review
 * (new audio is reviewed anew; the audit log keeps who had approved it), no consent.
 */
const withheld = {
  status: 'awaiting_consent',
  voiceConsentId: null,
  reviewTokenHash: null,
  reviewLinkExpiresAt: null,
  reviewedAt: null,
  reviewedBy: null,
  reviewedByKeyId: null,
  reviewComment: null,
  mimeType: null,
  durationMs: null,
  sizeBytes: null,
  sampleRate: null,
  loudnessLufs: null,
  truePeakDbtp: null,
  renditions: null,
  readyAt: null,
} as const;

async function dropAudio(tx: Tx, networkId: string, creativeIds: string[]): Promise<void> {
  if (creativeIds.length === 0) return;
  await tx.delete(creativeAudio).where(and(eq(creativeAudio.networkId, networkId), inArray(creativeAudio.creativeId, creativeIds)));
}

/** The states in which a creative holds (or is making) audio in the host's voice. */
const VOICED = ['generating', 'pending_approval', 'approved'] as const;

/**
 * A consent was revoked (or ended): each creative made or being made under it moves to another
 * consent that still covers it, or back to awaiting consent with its audio deleted and its review
 * link dead — in the revocation's transaction, after every synthesis committing under the consent
 * (which holds its share lock) has committed. A job still running finds its creative no longer
 * generating and stores nothing. Returns the ids withheld.
 */
export async function withdrawCreatives({ tx, consent }: { tx: Tx; consent: VoiceConsentRow }): Promise<string[]> {
  const made = await tx
    .select({ id: creatives.id, campaignId: creatives.campaignId, advertiserId: campaigns.advertiserId })
    .from(creatives)
    .innerJoin(campaigns, and(eq(campaigns.networkId, creatives.networkId), eq(campaigns.id, creatives.campaignId)))
    .where(and(eq(creatives.networkId, consent.networkId), eq(creatives.voiceConsentId, consent.id), inArray(creatives.status, VOICED)))
    .for('update', { of: creatives });
  const withdrawn: string[] = [];
  for (const advertiserId of new Set(made.map((c) => c.advertiserId))) {
    const ids = made.filter((c) => c.advertiserId === advertiserId).map((c) => c.id);
    const other = await coveringConsent({ tx, networkId: consent.networkId, podcastId: consent.podcastId, advertiserId, at: 'now', lock: 'share' });
    await tx
      .update(creatives)
      .set({ ...(other ? { voiceConsentId: other.id } : withheld), version: sql`${creatives.version} + 1`, updatedAt: sql`now()` })
      .where(and(eq(creatives.networkId, consent.networkId), inArray(creatives.id, ids)));
    if (!other) withdrawn.push(...ids);
  }
  await dropAudio(tx, consent.networkId, withdrawn);
  return withdrawn;
}

/**
 * In the synthesis job's transactions (its start and its commit): the consent the creative may be
 * synthesized under now, share-locked. Without one, a generating creative goes back to awaiting
 * consent (nothing stored) and this answers null.
 */
export async function consentForSynthesis({ tx, creative }: { tx: Tx; creative: CreativeRow }): Promise<VoiceConsentRow | null> {
  const consent = await consentNow({ tx, networkId: creative.networkId, podcastId: creative.podcastId, campaignId: creative.campaignId });
  if (consent) return consent;
  await updateVersioned({
    tx,
    table: creatives,
    networkId: creative.networkId,
    set: { status: 'awaiting_consent', voiceConsentId: null },
    where: and(eq(creatives.id, creative.id), eq(creatives.status, 'generating')),
  });
  return null;
}

/**
 * Audio made under a consent is offered only while that consent still covers it (a consent past its
 * `expires_at` covers nothing). Audio made before consent existed (no consent recorded) is offered
 * as it was.
 */
export async function consentStillCovers({ db, creative }: { db: Queryable; creative: CreativeRow }): Promise<boolean> {
  if (creative.voiceConsentId === null) return true;
  const consent = await consentNow({
    tx: db,
    networkId: creative.networkId,
    podcastId: creative.podcastId,
    campaignId: creative.campaignId,
    lock: false,
  });
  return consent !== null;
}

/** The most lapsed consents one run of the cron withdraws from; the rest wait a minute. */
const LAPSED_PER_RUN = 100;

/**
 * Cron (`withdraw-lapsed-consents`, every minute): a granted consent past its `expires_at` covers
 * nothing (the audio endpoint already refuses what it covered); this withdraws the creatives made
 * under it as a revocation does, one consent per transaction, oldest lapse first. Returns how many
 * creatives were withdrawn.
 */
export async function withdrawLapsedConsents({ db }: { db: Database }): Promise<number> {
  const c = voiceConsents;
  const lapsed = await db
    .select()
    .from(c)
    .where(
      and(
        eq(c.status, 'granted'),
        lte(c.expiresAt, sql`now()`),
        exists(
          db
            .select({ one: sql`1` })
            .from(creatives)
            .where(
              and(
                eq(creatives.networkId, c.networkId),
                eq(creatives.podcastId, c.podcastId),
                inArray(creatives.status, VOICED),
                eq(creatives.voiceConsentId, c.id),
              ),
            ),
        ),
      ),
    )
    .orderBy(asc(c.expiresAt))
    .limit(LAPSED_PER_RUN);
  let withdrawn = 0;
  for (const consent of lapsed) {
    // The consent first (the lock order): a revocation racing this one withdraws the same creatives once.
    const ids = await db.transaction(async (tx) => {
      await findVoiceConsent({ db: tx, networkId: consent.networkId, id: consent.id, lock: 'update' });
      return withdrawCreatives({ tx, consent });
    });
    withdrawn += ids.length;
  }
  return withdrawn;
}
