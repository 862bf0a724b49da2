import { z } from 'zod';
import { conflict, found } from '@/server/errors';
import { consentStillCovers } from '@/server/services/creatives/consent-gate';
import { findCreative } from '@/server/services/creatives/find-creatives';
import { networkProcedure } from '@/server/trpc';
import { getCreativeAudioInput } from './get-creative-audio.types';
import { serveCreativeAudio } from './serve-audio';

export const getCreativeAudioRoute = networkProcedure('read_only')
  .meta({
    errors: {
      'not-found': 'No creative with this id in the network.',
      'not-acceptable': 'Neither `?format=` nor `Accept` names a rendition the creative has (`detail` lists them).',
      conflict:
        'The creative is not approved (awaiting consent, generating, changes requested or failed), or it is pending approval and the key is not ' +
        'an administrator’s, or no consent of the host covers it any more.',
      'range-not-satisfiable': 'The Range lies outside the audio.',
    },
    openapi: {
      method: 'GET',
      path: '/networks/{networkId}/creatives/{creativeId}/audio',
      tags: ['creatives'],
      summary: 'Download the audio of an approved creative',
      description:
        'The audio bytes, mastered to −16 LUFS with true peak ≤ −1 dBTP, with their Content-Type and Content-Length: **MP3** (audio/mpeg, 44.1 kHz, 128 kbit/s CBR, mono; the default) or **WAV** (audio/wav, 44.1 kHz 16-bit PCM, mono). ' +
        'Choose with `?format=mp3|wav` or `Accept: audio/mpeg` / `audio/wav` (q-values honoured; `?format=` wins); an `Accept` that matches neither answers 406. ' +
        'Supports `Range: bytes=…` (206) for seeking, in either format. ' +
        'Served to any key of the network once the creative is **approved**, while a consent of the host still covers it; **pending_approval** audio ' +
        'only to administrator keys, who review it on the host’s behalf. Anything else answers 409.',
      protect: true,
    },
  })
  .input(getCreativeAudioInput)
  .output(z.null())
  .query(async ({ ctx, input }) => {
    const row = found(await findCreative({ db: ctx.db, networkId: input.networkId, id: input.creativeId }), 'Creative');
    if (row.status === 'approved') {
      if (!(await consentStillCovers({ db: ctx.db, creative: row }))) {
        throw conflict('The creative’s audio is not offered: no consent of the host covers it any more.');
      }
    } else if (row.status === 'pending_approval') {
      if (ctx.network.role !== 'administrator') {
        throw conflict('The creative is pending approval: until it is approved, only administrators (reviewing for the host) can hear it.');
      }
    } else {
      throw conflict(`The creative's audio is not available: it is ${row.status}.`);
    }
    return serveCreativeAudio({ ctx, row, format: input.format, cacheable: row.status === 'approved' });
  });
