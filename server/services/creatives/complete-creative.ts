import { and, eq, sql } from 'drizzle-orm';
import type { Database, Tx } from '@/db/client';
import { creativeAudio, creatives, type RenditionSummary } from '@/db/schema';
import type { MasteredAudio } from '@/server/synth/master';
import { recordEvent } from '@/server/services/events/record-event';
import { noticeCreativeFailed } from '@/server/services/notifications/notices';
import { updateVersioned } from '@/server/services/optimistic-lock';
import { consentForSynthesis } from './consent-gate';
import { openReview } from './review-link';

export type CreativeRow = typeof creatives.$inferSelect;

/** `networkId` is absent only in a job queued before jobs carried it: the creative is found by its id alone. */
export async function loadGeneratingCreative({
  db,
  networkId,
  id,
}: {
  db: Database;
  networkId?: string;
  id: string;
}): Promise<CreativeRow | undefined> {
  const [row] = await db
    .select()
    .from(creatives)
    .where(and(networkId === undefined ? undefined : eq(creatives.networkId, networkId), eq(creatives.id, id), eq(creatives.status, 'generating')));
  return row;
}

export async function noteAttempt({ db, creative }: { db: Database; creative: CreativeRow }): Promise<void> {
  await db
    .update(creatives)
    .set({ attempts: sql`${creatives.attempts} + 1` })
    .where(and(eq(creatives.networkId, creative.networkId), eq(creatives.id, creative.id)));
}

import { audioUrl } from './audio-url';

export { audioUrl };

/**
 * Store every rendition, mark the creative pending_approval with what was measured, open its review
 * (the host's link, emailed) and record creative.ready — one transaction, under the share lock of
 * the consent that still covers it (consent-gate.ts): without one, the creative goes back to
 * awaiting consent and nothing is stored. A crash before COMMIT leaves the creative generating with
 * no audio rows (its job runs again), never pending approval without audio or audio without the event.
 */
export async function completeCreative({ tx, creative, audio }: { tx: Tx; creative: CreativeRow; audio: MasteredAudio }): Promise<boolean> {
  const [main] = audio.renditions;
  if (!main) throw new Error('a mastered creative has at least one rendition');
  const consent = await consentForSynthesis({ tx, creative });
  if (!consent) return false;
  const renditions: RenditionSummary[] = audio.renditions.map((r) => ({
    format: r.format,
    mimeType: r.mimeType,
    sizeBytes: r.bytes.length,
    loudnessLufs: r.loudnessLufs,
    truePeakDbtp: r.truePeakDbtp,
  }));
  const [ready] = await updateVersioned({
    tx,
    table: creatives,
    networkId: creative.networkId,
    set: {
      status: 'pending_approval',
      voiceConsentId: consent.id,
      mimeType: main.mimeType,
      durationMs: Math.round(audio.durationMs),
      sizeBytes: main.bytes.length,
      sampleRate: audio.sampleRate,
      loudnessLufs: main.loudnessLufs,
      truePeakDbtp: main.truePeakDbtp,
      renditions,
      failureReason: null,
      readyAt: sql`now()`,
    },
    where: and(eq(creatives.id, creative.id), eq(creatives.status, 'generating')),
  }).returning();
  if (!ready) return false;
  for (const r of audio.renditions) {
    await tx
      .insert(creativeAudio)
      .values({ creativeId: creative.id, networkId: creative.networkId, format: r.format, bytes: r.bytes })
      .onConflictDoUpdate({ target: [creativeAudio.creativeId, creativeAudio.format], set: { bytes: r.bytes } });
  }
  await openReview({ tx, creative: ready, consent });
  await recordEvent({
    tx,
    networkId: creative.networkId,
    type: 'creative.ready',
    data: {
      creative_id: creative.id,
      offer_id: creative.offerId,
      campaign_id: creative.campaignId,
      podcast_id: creative.podcastId,
      mime_type: main.mimeType,
      duration_ms: Math.round(audio.durationMs),
      audio_url: audioUrl(creative),
    },
  });
  return true;
}

/** Mark the creative failed with a client-facing reason, record creative.failed and tell the network's administrators. */
export async function failCreative({ tx, creative, reason }: { tx: Tx; creative: CreativeRow; reason: string }): Promise<boolean> {
  const [failed] = await updateVersioned({
    tx,
    table: creatives,
    networkId: creative.networkId,
    set: { status: 'failed', failureReason: reason },
    where: and(eq(creatives.id, creative.id), eq(creatives.status, 'generating')),
  }).returning();
  if (!failed) return false;
  await recordEvent({
    tx,
    networkId: creative.networkId,
    type: 'creative.failed',
    data: {
      creative_id: creative.id,
      offer_id: creative.offerId,
      campaign_id: creative.campaignId,
      podcast_id: creative.podcastId,
      failure_reason: reason,
    },
  });
  await noticeCreativeFailed({ tx, networkId: creative.networkId, creativeId: creative.id, reason });
  return true;
}
