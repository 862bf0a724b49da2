import { z } from 'zod';
import { conflict, notFound } from '../../errors';
import { setEtag } from '../../http/locking';
import { paginate } from '../../http/pagination';
import { parseRange } from '../../http/range';
import { findCreative, listCreatives as findCreatives, loadAudio } from '../../services/creatives/find-creatives';
import { networkProcedure } from '../../trpc';
import { creativeInput, creativeListSchema, creativeSchema, listCreativesInput, presentCreative } from './creative.types';

export const listCreatives = networkProcedure('read_only')
  .meta({ openapi: { method: 'GET', path: '/networks/{networkId}/creatives', tags: ['creatives'], summary: 'List creatives', protect: true } })
  .input(listCreativesInput)
  .output(creativeListSchema)
  .query(({ ctx, input }) =>
    paginate(
      input,
      `creatives:${input.networkId}:${input.status ?? ''}:${input.offer_id ?? ''}`,
      (after, take) => findCreatives(ctx.db, input.networkId, { status: input.status, offerId: input.offer_id }, after, take),
      presentCreative,
    ),
  );

export const getCreative = networkProcedure('read_only')
  .meta({ openapi: { method: 'GET', path: '/networks/{networkId}/creatives/{creativeId}', tags: ['creatives'], summary: 'Get a creative', protect: true } })
  .input(creativeInput)
  .output(creativeSchema)
  .query(async ({ ctx, input }) => {
    const row = await findCreative(ctx.db, input.networkId, input.creativeId);
    if (!row) throw notFound('Creative');
    setEtag(ctx.http, row.version);
    return presentCreative(row);
  });

export const getCreativeAudio = networkProcedure('read_only')
  .meta({
    openapi: {
      method: 'GET',
      path: '/networks/{networkId}/creatives/{creativeId}/audio',
      tags: ['creatives'],
      summary: 'Download the audio of a ready creative',
      description:
        'The audio bytes with their Content-Type (audio/wav or audio/mpeg) and Content-Length. Supports `Range: bytes=…` (206) for seeking. A creative that is not ready answers 409.',
      protect: true,
    },
  })
  .input(creativeInput)
  .output(z.null())
  .query(async ({ ctx, input }) => {
    const row = await findCreative(ctx.db, input.networkId, input.creativeId);
    if (!row) throw notFound('Creative');
    if (row.status !== 'ready') throw conflict(`The creative's audio is not available: it is ${row.status}.`);
    const audio = await loadAudio(ctx.db, row.id);
    if (!audio) throw notFound('Audio');
    const range = parseRange(ctx.header('range'), audio.length);
    ctx.http.headers['Accept-Ranges'] = 'bytes';
    ctx.http.headers['Cache-Control'] = 'private, max-age=3600';
    const contentType = row.mimeType ?? 'application/octet-stream';
    if (range) {
      ctx.http.status = 206;
      ctx.http.headers['Content-Range'] = `bytes ${range.start}-${range.end}/${audio.length}`;
      ctx.http.raw = { body: audio.subarray(range.start, range.end + 1), contentType };
    } else {
      ctx.http.raw = { body: audio, contentType };
    }
    return null;
  });
