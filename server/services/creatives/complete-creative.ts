import { and, eq, sql } from 'drizzle-orm';
import type { Database, Tx } from '../../../db/client';
import { creativeAudio, creatives } from '../../../db/schema';
import type { SynthesisResult } from '../../../jobs/synth/types';
import { recordEvent } from '../events/record-event';

export type CreativeRow = typeof creatives.$inferSelect;

export async function loadGeneratingCreative(db: Database, id: string): Promise<CreativeRow | undefined> {
  const [row] = await db.select().from(creatives).where(and(eq(creatives.id, id), eq(creatives.status, 'generating')));
  return row;
}

export async function noteAttempt(db: Database, id: string): Promise<void> {
  await db.update(creatives).set({ attempts: sql`${creatives.attempts} + 1` }).where(eq(creatives.id, id));
}

import { audioUrl } from './audio-url';

export { audioUrl };

/** Store the audio, mark the creative ready and record creative.ready — one transaction. */
export async function completeCreative(tx: Tx, creative: CreativeRow, result: SynthesisResult): Promise<boolean> {
  const [ready] = await tx
    .update(creatives)
    .set({
      status: 'ready',
      mimeType: result.mimeType,
      durationMs: Math.round(result.durationMs),
      sizeBytes: result.audio.length,
      failureReason: null,
      readyAt: sql`now()`,
      version: sql`${creatives.version} + 1`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(creatives.id, creative.id), eq(creatives.status, 'generating')))
    .returning();
  if (!ready) return false;
  await tx
    .insert(creativeAudio)
    .values({ creativeId: creative.id, bytes: result.audio })
    .onConflictDoUpdate({ target: creativeAudio.creativeId, set: { bytes: result.audio } });
  await recordEvent(tx, {
    networkId: creative.networkId,
    type: 'creative.ready',
    data: {
      creative_id: creative.id,
      offer_id: creative.offerId,
      campaign_id: creative.campaignId,
      podcast_id: creative.podcastId,
      mime_type: result.mimeType,
      duration_ms: Math.round(result.durationMs),
      audio_url: audioUrl(creative),
    },
  });
  return true;
}

/** Mark the creative failed with a client-facing reason and record creative.failed. */
export async function failCreative(tx: Tx, creative: CreativeRow, reason: string): Promise<boolean> {
  const [failed] = await tx
    .update(creatives)
    .set({ status: 'failed', failureReason: reason, version: sql`${creatives.version} + 1`, updatedAt: sql`now()` })
    .where(and(eq(creatives.id, creative.id), eq(creatives.status, 'generating')))
    .returning();
  if (!failed) return false;
  await recordEvent(tx, {
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
  return true;
}
