import Negotiator from 'negotiator';
import { AUDIO_MIME_TYPES, type AudioFormat } from '@/domain/statuses';
import { AppError } from '@/server/errors';

/** Media types a client may name for each format (the registered one first; the others are in common use). */
const MEDIA_TYPES: Record<AudioFormat, readonly string[]> = {
  mp3: [AUDIO_MIME_TYPES.mp3, 'audio/mp3'],
  wav: [AUDIO_MIME_TYPES.wav, 'audio/wave', 'audio/x-wav', 'audio/vnd.wave'],
};

/**
 * Which of a creative's renditions (`available`, default first) to serve: `?format=` when given,
 * else the best match for `Accept` (ties go to the default), else the default. Nothing acceptable
 * is a 406 naming what is available.
 */
export function chooseRendition({
  available,
  format,
  accept,
}: {
  available: readonly AudioFormat[];
  format?: AudioFormat;
  accept?: string;
}): AudioFormat {
  const offered = available.map((f) => `${f} (${AUDIO_MIME_TYPES[f]})`).join(', ');
  if (format) {
    if (available.includes(format)) return format;
    throw new AppError('not-acceptable', `This creative has no ${format} rendition. Available: ${offered}.`);
  }
  if (!accept?.trim()) return available[0]!;
  const candidates = available.flatMap((f) => MEDIA_TYPES[f]);
  const [best] = new Negotiator({ headers: { accept } }).mediaTypes(candidates);
  const chosen = available.find((f) => best !== undefined && MEDIA_TYPES[f].includes(best));
  if (chosen) return chosen;
  throw new AppError(
    'not-acceptable',
    `No rendition of this creative matches Accept: ${accept.slice(0, 200)}. Available: ${offered}; or use ?format=.`,
  );
}
