import { AUDIO_MIME_TYPES, type AudioFormat } from '@/domain/statuses';
import { notFound } from '@/server/errors';
import { parseRange } from '@/server/http/range';
import { renditionsOf } from '@/server/services/creatives/audio-url';
import { chooseRendition } from '@/server/services/creatives/choose-rendition';
import type { CreativeRow } from '@/server/services/creatives/complete-creative';
import { loadAudio } from '@/server/services/creatives/find-creatives';
import type { Context } from '@/server/trpc';

/**
 * Answer with a creative's audio, the caller having decided that it may be heard: the rendition
 * `?format=` or `Accept` picks (406 when none fits), the whole file or the `Range` asked for (206),
 * cached by the one who asked only, and only when `cacheable` (approved audio: what is pending
 * approval may be withdrawn or replaced at any moment).
 */
export async function serveCreativeAudio({
  ctx,
  row,
  format,
  cacheable,
}: {
  ctx: Pick<Context, 'db' | 'http' | 'header'>;
  row: CreativeRow;
  format?: AudioFormat | undefined;
  cacheable: boolean;
}): Promise<null> {
  const chosen = chooseRendition({ available: renditionsOf(row).map((r) => r.format), format, accept: ctx.header('accept') });
  const audio = await loadAudio({ db: ctx.db, networkId: row.networkId, creativeId: row.id, format: chosen });
  if (!audio) throw notFound('Audio');
  const range = parseRange(ctx.header('range'), audio.length);
  ctx.http.headers['Accept-Ranges'] = 'bytes';
  ctx.http.headers['Cache-Control'] = cacheable ? 'private, max-age=3600' : 'private, no-store';
  // The same URL answers MP3 or WAV by Accept: caches must key on it.
  ctx.http.headers.Vary = 'Accept';
  ctx.http.headers['Content-Disposition'] = `inline; filename="${row.id}.${chosen}"`;
  const contentType = AUDIO_MIME_TYPES[chosen];
  if (range) {
    ctx.http.status = 206;
    ctx.http.headers['Content-Range'] = `bytes ${range.start}-${range.end}/${audio.length}`;
    ctx.http.raw = { body: audio.subarray(range.start, range.end + 1), contentType };
  } else {
    ctx.http.raw = { body: audio, contentType };
  }
  return null;
}
