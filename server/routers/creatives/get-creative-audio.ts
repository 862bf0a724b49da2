import { z } from 'zod';
import { AUDIO_MIME_TYPES } from '@/domain/statuses';
import { conflict, notFound } from '@/server/errors';
import { parseRange } from '@/server/http/range';
import { renditionsOf } from '@/server/services/creatives/audio-url';
import { chooseRendition } from '@/server/services/creatives/choose-rendition';
import { findCreative, loadAudio } from '@/server/services/creatives/find-creatives';
import { networkProcedure } from '@/server/trpc';
import { getCreativeAudioInput } from './get-creative-audio.types';

export const getCreativeAudioRoute = networkProcedure('read_only')
  .meta({
    errors: {
      'not-found': 'No creative with this id in the network.',
      'not-acceptable': 'Neither `?format=` nor `Accept` names a rendition the creative has (`detail` lists them).',
      conflict: 'The creative is not ready (generating or failed).',
      'range-not-satisfiable': 'The Range lies outside the audio.',
    },
    openapi: {
      method: 'GET',
      path: '/networks/{networkId}/creatives/{creativeId}/audio',
      tags: ['creatives'],
      summary: 'Download the audio of a ready creative',
      description:
        'The audio bytes, mastered to −16 LUFS with true peak ≤ −1 dBTP, with their Content-Type and Content-Length: **MP3** (audio/mpeg, 44.1 kHz, 128 kbit/s CBR, mono; the default) or **WAV** (audio/wav, 44.1 kHz 16-bit PCM, mono). ' +
        'Choose with `?format=mp3|wav` or `Accept: audio/mpeg` / `audio/wav` (q-values honoured; `?format=` wins); an `Accept` that matches neither answers 406. ' +
        'Supports `Range: bytes=…` (206) for seeking, in either format. A creative that is not ready answers 409.',
      protect: true,
    },
  })
  .input(getCreativeAudioInput)
  .output(z.null())
  .query(async ({ ctx, input }) => {
    const row = await findCreative({ db: ctx.db, networkId: input.networkId, id: input.creativeId });
    if (!row) throw notFound('Creative');
    if (row.status !== 'ready') throw conflict(`The creative's audio is not available: it is ${row.status}.`);
    const format = chooseRendition({ available: renditionsOf(row).map((r) => r.format), format: input.format, accept: ctx.header('accept') });
    const audio = await loadAudio({ db: ctx.db, networkId: row.networkId, creativeId: row.id, format });
    if (!audio) throw notFound('Audio');
    const range = parseRange(ctx.header('range'), audio.length);
    ctx.http.headers['Accept-Ranges'] = 'bytes';
    ctx.http.headers['Cache-Control'] = 'private, max-age=3600';
    // The same URL answers MP3 or WAV by Accept: caches must key on it.
    ctx.http.headers.Vary = 'Accept';
    ctx.http.headers['Content-Disposition'] = `inline; filename="${row.id}.${format}"`;
    const contentType = AUDIO_MIME_TYPES[format];
    if (range) {
      ctx.http.status = 206;
      ctx.http.headers['Content-Range'] = `bytes ${range.start}-${range.end}/${audio.length}`;
      ctx.http.raw = { body: audio.subarray(range.start, range.end + 1), contentType };
    } else {
      ctx.http.raw = { body: audio, contentType };
    }
    return null;
  });
