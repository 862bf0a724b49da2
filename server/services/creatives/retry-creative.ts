import { eq } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { creatives } from '@/db/schema';
import { conflict, notFound } from '@/server/errors';
import { queueSynthesis, synthesisStart } from './consent-gate';
import { findCreative } from './find-creatives';
import { updateVersioned } from '@/server/services/optimistic-lock';

/** failed → generating with a fresh synthesis job (awaiting_consent when no consent covers it now), in one transaction. */
export async function retryCreative({ tx, networkId, id }: { tx: Tx; networkId: string; id: string }) {
  const seen = await findCreative({ db: tx, networkId, id });
  if (!seen) throw notFound('Creative');
  // The consent before the creative: the lock order of consent-gate.ts.
  const start = await synthesisStart({ tx, networkId, podcastId: seen.podcastId, campaignId: seen.campaignId });
  const creative = (await findCreative({ db: tx, networkId, id, lock: 'update' }))!;
  if (creative.status !== 'failed') throw conflict(`Only a failed creative can be retried; this one is ${creative.status}.`);
  const [row] = await updateVersioned({
    tx,
    table: creatives,
    networkId,
    set: { ...start, failureReason: null, attempts: 0 },
    where: eq(creatives.id, id),
  }).returning();
  await queueSynthesis({ tx, creative: row! });
  return row!;
}
