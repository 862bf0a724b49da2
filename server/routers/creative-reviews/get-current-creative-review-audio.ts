import { z } from 'zod';
import { conflict } from '@/server/errors';
import { serveCreativeAudio } from '@/server/routers/creatives/serve-audio';
import { holdsAudio } from '@/server/services/creatives/audio-url';
import { creativeReviewLinkProcedure } from '@/server/trpc';
import { getCurrentCreativeReviewAudioInput } from './get-current-creative-review-audio.types';

export const getCurrentCreativeReviewAudioRoute = creativeReviewLinkProcedure
  .meta({
    errors: {
      'not-found': 'The revision’s audio is gone (withdrawn while this ran).',
      'not-acceptable': 'The revision has no MP3 rendition.',
      conflict: 'The revision is neither pending approval nor approved: it holds no audio.',
      'range-not-satisfiable': 'The Range lies outside the audio.',
    },
    openapi: {
      method: 'GET',
      path: '/creative-reviews/current/audio',
      tags: ['creative review'],
      summary: 'Listen to the revision a review link is for',
      description:
        'The link’s token as the bearer. The revision’s MP3 (audio/mpeg), while it is pending approval or approved; supports ' +
        '`Range: bytes=…` (206). Any other state → 409.',
      protect: true,
    },
  })
  .input(getCurrentCreativeReviewAudioInput)
  .output(z.null())
  .query(async ({ ctx }) => {
    const row = ctx.creativeReview!.row;
    if (!holdsAudio(row)) throw conflict(`This revision has no audio to hear: it is ${row.status}.`);
    return serveCreativeAudio({ ctx, row, format: 'mp3', cacheable: false });
  });
