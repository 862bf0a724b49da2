import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client';
import { podcasts } from '../../../db/schema';
import { notFound } from '../../errors';
import type { PodcastFields } from './create-podcast';
import { findPodcast, type PodcastRow } from './find-podcasts';
import { versionToWrite, modifiedConcurrently } from '../optimistic-lock';

/**
 * Optimistically locked update of a podcast's details (not its opt-in state,
 * which has its own operations). A request that changes nothing answers the
 * podcast as it is.
 */
export async function updatePodcast(
  tx: Tx,
  input: { networkId: string; podcastId: string; changes: Partial<PodcastFields>; expectedVersion: number | undefined },
): Promise<PodcastRow> {
  const current = await findPodcast(tx, input.networkId, input.podcastId);
  if (!current) throw notFound('Podcast');
  const version = versionToWrite('Podcast', current.version, input.expectedVersion);
  if (Object.keys(input.changes).length === 0) return current;
  const [row] = await tx
    .update(podcasts)
    .set({ ...input.changes, version: sql`${podcasts.version} + 1`, updatedAt: sql`now()` })
    .where(and(eq(podcasts.id, current.id), eq(podcasts.version, version)))
    .returning();
  if (!row) throw modifiedConcurrently('Podcast');
  return row;
}
