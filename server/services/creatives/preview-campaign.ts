import { and, eq } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { campaigns, podcasts } from '@/db/schema';
import { synthesisProviderFor } from '@/server/synth';
import { networkMode } from '@/server/services/networks/find-network';
import { SynthesisError, type SynthesisResult } from '@/server/synth/types';
import { AppError, badRequest, notFound } from '@/server/errors';
import { admitPreview } from './preview-admission';
import { consentNow } from './consent-gate';

/** Previews read the start of the script only: a sentence or two, at most this many characters. */
export const PREVIEW_CHARACTERS = 200;

export function previewText(script: string, fallback: string): string {
  const text = script.trim() || fallback;
  if (text.length <= PREVIEW_CHARACTERS) return text;
  const cut = text.slice(0, PREVIEW_CHARACTERS);
  const sentenceEnd = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('! '), cut.lastIndexOf('? '));
  return sentenceEnd > 40 ? cut.slice(0, sentenceEnd + 1) : `${cut.slice(0, cut.lastIndexOf(' ') > 0 ? cut.lastIndexOf(' ') : cut.length)}…`;
}

/**
 * Synthesize a short preview synchronously. An upstream failure is a 502
 * (upstream-unavailable) with a client-facing reason, never a 500; a script
 * that cannot be synthesised at all is a 409; a network with too many previews
 * waiting in this process is refused with 429 (preview-admission.ts).
 */
export async function previewCampaign({
  db,
  networkId,
  campaignId,
  podcastId,
}: {
  db: Queryable;
  networkId: string;
  campaignId: string;
  podcastId: string;
}): Promise<SynthesisResult> {
  const [campaign] = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.networkId, networkId), eq(campaigns.id, campaignId)));
  if (!campaign) throw notFound('Campaign');
  const [podcast] = await db
    .select()
    .from(podcasts)
    .where(and(eq(podcasts.networkId, networkId), eq(podcasts.id, podcastId)));
  if (!podcast) throw badRequest('podcast_id is not a podcast of this network.', [{ path: 'podcast_id', message: 'Unknown podcast.' }]);
  // The host's voice says nothing without their consent, a preview included (consent-gate.ts).
  if (!(await consentNow({ tx: db, networkId, podcastId, campaignId, lock: false }))) {
    throw new AppError(
      'voice-consent-required',
      `The host of ${podcast.name} has not granted voice consent covering this campaign's advertiser: request it (POST …/podcasts/${podcastId}/voice-consents) before previewing.`,
    );
  }
  const text = previewText(campaign.script, campaign.name);
  try {
    // Per-network admission (429 when this network's queue is full), then the engine, after creatives.
    const provider = synthesisProviderFor(await networkMode({ db, id: networkId }));
    return await admitPreview(networkId, () => provider.synthesize({ text, voice: podcast.voice }, { purpose: 'preview', networkId }));
  } catch (error) {
    // Refused for the text (nothing speakable, too long, rejected by the voice service): retrying
    // will not help, so this is not the voice service being unavailable (502) but the campaign.
    if (error instanceof SynthesisError && (error.code === 'invalid_request' || error.code === 'rejected')) {
      throw new AppError('conflict', `The campaign's script cannot be previewed: ${error.clientReason} Edit the campaign's script (or name) first.`);
    }
    if (error instanceof SynthesisError) {
      throw new AppError('upstream-unavailable', `The voice service could not make the preview: ${error.clientReason} Retry later.`);
    }
    throw error;
  }
}
