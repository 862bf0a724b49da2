import type { JobHelpers } from 'graphile-worker';
import { z } from 'zod';
import { database } from '../../db/client';
import { completeCreative, failCreative, loadGeneratingCreative, noteAttempt } from '../../server/services/creatives/complete-creative';
import { logger } from '../../server/logger';
import { synthesisProvider } from '../synth';
import { SynthesisError } from '../synth/types';

export const synthesizeCreativePayload = z.object({ creativeId: z.string().min(1) });

/**
 * Generate a creative's audio. Re-reads the creative and does nothing unless it
 * is still generating (a retry of a finished job, or a duplicate, is harmless).
 * Retryable upstream failures throw so graphile-worker retries with backoff;
 * a permanent failure, or the last attempt, fails the creative with a
 * client-facing reason and the creative.failed event.
 */
export async function synthesizeCreative(payload: z.output<typeof synthesizeCreativePayload>, helpers: JobHelpers): Promise<void> {
  const db = database();
  const creative = await loadGeneratingCreative(db, payload.creativeId);
  if (!creative) return;
  await noteAttempt(db, creative.id);
  try {
    const result = await synthesisProvider().synthesize({ text: creative.script, voice: creative.voice }, { signal: helpers.abortSignal });
    await db.transaction((tx) => completeCreative(tx, creative, result));
  } catch (error) {
    const lastAttempt = helpers.job.attempts >= helpers.job.max_attempts;
    const retryable = error instanceof SynthesisError ? error.retryable : true;
    logger.warn({ err: error, creativeId: creative.id, attempt: helpers.job.attempts, retryable }, 'synthesis failed');
    if (retryable && !lastAttempt) throw error;
    const reason =
      error instanceof SynthesisError && !retryable
        ? error.clientReason
        : 'The voice service could not generate the audio after several attempts. Retry the creative later.';
    await db.transaction((tx) => failCreative(tx, creative, reason));
  }
}
