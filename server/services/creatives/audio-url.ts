import { AUDIO_MIME_TYPES, type AudioFormat } from '@/domain/statuses';
import type { RenditionSummary } from '@/db/schema';
import { config } from '@/server/config';
import type { CreativeRow } from './complete-creative';

// No database code here: the API schemas that present creatives are imported by the console too.
/** Where the audio of a creative is served (the REST path; no storage key); with a format, that rendition. */
export function audioUrl(creative: Pick<CreativeRow, 'networkId' | 'id'>, format?: AudioFormat): string {
  const url = `${config().publicUrl}/v1/networks/${creative.networkId}/creatives/${creative.id}/audio`;
  return format ? `${url}?format=${format}` : url;
}

/** The states in which a creative holds audio: pending the host's approval, or approved (docs/creative-review.md). */
export const holdsAudio = (creative: Pick<CreativeRow, 'status'>) => creative.status === 'pending_approval' || creative.status === 'approved';

/**
 * The renditions a creative holds (pending approval or approved), default first. Audio stored
 * before renditions existed (one unmastered file) is described from the row: one rendition in the
 * format it was stored in.
 */
export function renditionsOf(creative: Pick<CreativeRow, 'status' | 'renditions' | 'mimeType' | 'sizeBytes'>): RenditionSummary[] {
  if (!holdsAudio(creative)) return [];
  if (creative.renditions) return creative.renditions;
  const format: AudioFormat = creative.mimeType === AUDIO_MIME_TYPES.mp3 ? 'mp3' : 'wav';
  return [
    { format, mimeType: creative.mimeType ?? AUDIO_MIME_TYPES[format], sizeBytes: creative.sizeBytes ?? 0, loudnessLufs: null, truePeakDbtp: null },
  ];
}
