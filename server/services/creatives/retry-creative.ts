import { eq } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { creatives } from '@/db/schema';
import { enqueueJob } from '@/server/jobs/enqueue';
import { conflict, notFound } from '@/server/errors';
import { synthesisAttempts } from '@/server/services/offers/decide-offer';
import { findCreative } from './find-creatives';
import { updateVersioned } from '@/server/services/optimistic-lock';

/** failed → generating, with a fresh synthesis job, in one transaction. */
export async function retryCreative({ tx, networkId, id }: { tx: Tx; networkId: string; id: string }) {
  const creative = await findCreative({ db: tx, networkId, id, lock: 'update' });
  if (!creative) throw notFound('Creative');
  if (creative.status !== 'failed') throw conflict(`Only a failed creative can be retried; this one is ${creative.status}.`);
  const [row] = await updateVersioned({
    tx,
    table: creatives,
    networkId,
    set: { status: 'generating', failureReason: null, attempts: 0 },
    where: eq(creatives.id, id),
  }).returning();
  await enqueueJob(tx, 'synthesize-creative', { creativeId: id, networkId }, { maxAttempts: synthesisAttempts() });
  return row!;
}
