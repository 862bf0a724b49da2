import type { JobHelpers } from 'graphile-worker';
import { database } from '@/db/client';
import { completeCreative, failCreative, loadGeneratingCreative, noteAttempt, type CreativeRow } from '@/server/services/creatives/complete-creative';
import { admitSynthesis, requeueSynthesis } from '@/server/services/creatives/synthesis-lanes';
import { consentForSynthesis } from '@/server/services/creatives/consent-gate';
import { logger } from '@/server/logger';
import { synthesisProviderFor } from '@/server/synth';
import { networkMode } from '@/server/services/networks/find-network';
import { masterAudio } from '@/server/synth/master';
import { SynthesisError } from '@/server/synth/types';
import type { TaskPayload } from '@/server/jobs/payloads';

/**
 * Generate a creative's audio and master it (server/synth/master.ts: −16 LUFS, MP3 + WAV).
 * Re-reads the creative and does nothing unless it is still generating (a retry of a finished
 * job, or a duplicate, is harmless) and a consent of the host still covers it (consent-gate.ts;
 * checked again when the audio is stored). Beyond its
 * network's share of the synthesis slots, the job is put back (synthesis-lanes.ts).
 * Retryable upstream failures throw so graphile-worker retries with backoff;
 * a permanent failure, or the last attempt, fails the creative with a
 * client-facing reason and the creative.failed event.
 */
export async function synthesizeCreative(payload: TaskPayload<'synthesize-creative'>, helpers: JobHelpers): Promise<void> {
  const db = database();
  const creative = await loadGeneratingCreative({ db, networkId: payload.networkId, id: payload.creativeId });
  if (!creative) return;
  // No consent covers it any more (revoked or ended since it was queued): back to awaiting consent, no synthesis.
  if (!(await db.transaction((tx) => consentForSynthesis({ tx, creative })))) return;
  // Beyond its network's share of this process's synthesis slots, the job waits in the network's lanes.
  const admission = admitSynthesis({ networkId: creative.networkId, creativeId: creative.id });
  if (!admission.admitted) {
    const attemptsLeft = helpers.job.max_attempts - helpers.job.attempts + 1;
    await requeueSynthesis({
      db,
      networkId: creative.networkId,
      creativeId: creative.id,
      queueName: admission.queueName,
      runAt: admission.runAt,
      attemptsLeft,
    });
    return;
  }
  try {
    await synthesize(creative, helpers);
  } finally {
    admission.done();
  }
}

/** One attempt: synthesize, master, store — or throw for a retry, or fail the creative. */
async function synthesize(creative: CreativeRow, helpers: JobHelpers): Promise<void> {
  const db = database();
  await noteAttempt({ db, creative });
  try {
    const caller = { signal: helpers.abortSignal, networkId: creative.networkId };
    const provider = synthesisProviderFor(await networkMode({ db, id: creative.networkId }));
    const result = await provider.synthesize({ text: creative.script, voice: creative.voice }, { ...caller, purpose: 'creative' });
    // Mastered before the transaction: it holds no connection while ffmpeg works.
    const audio = await masterAudio(result.audio, caller);
    await db.transaction((tx) => completeCreative({ tx, creative, audio }));
  } catch (error) {
    const lastAttempt = helpers.job.attempts >= helpers.job.max_attempts;
    const retryable = error instanceof SynthesisError ? error.retryable : true;
    logger.warn({ err: error, creativeId: creative.id, attempt: helpers.job.attempts, retryable }, 'synthesis failed');
    if (retryable && !lastAttempt) throw error;
    const reason =
      error instanceof SynthesisError && !retryable
        ? error.clientReason
        : 'The voice service could not generate the audio after several attempts. Retry the creative later.';
    await db.transaction((tx) => failCreative({ tx, creative, reason }));
  }
}
