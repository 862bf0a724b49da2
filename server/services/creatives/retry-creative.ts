import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client';
import { creatives } from '../../../db/schema';
import { enqueueJob } from '../../../jobs/enqueue';
import { conflict, notFound } from '../../errors';
import { synthesisAttempts } from '../offers/decide-offer';
import { findCreative } from './find-creatives';

/** failed → generating, with a fresh synthesis job, in one transaction. */
export async function retryCreative(tx: Tx, networkId: string, id: string) {
  const creative = await findCreative(tx, networkId, id, { lock: true });
  if (!creative) throw notFound('Creative');
  if (creative.status !== 'failed') throw conflict(`Only a failed creative can be retried; this one is ${creative.status}.`);
  const [row] = await tx
    .update(creatives)
    .set({ status: 'generating', failureReason: null, attempts: 0, version: sql`${creatives.version} + 1`, updatedAt: sql`now()` })
    .where(eq(creatives.id, id))
    .returning();
  await enqueueJob(tx, 'synthesize-creative', { creativeId: id }, { maxAttempts: synthesisAttempts() });
  return row!;
}
