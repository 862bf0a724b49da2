import { eq } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { podcasts } from '@/db/schema';
import { notFound } from '@/server/errors';
import { checkedPodcastRules } from '@/server/services/brand-safety/podcast-rules';
import type { PodcastFields } from './create-podcast';
import { findPodcast, type PodcastRow } from './find-podcasts';
import { versionToWrite, modifiedConcurrently, updateVersioned } from '@/server/services/optimistic-lock';

/**
 * Optimistically locked update of a podcast's details (not its opt-in state,
 * which has its own operations). A request that changes nothing answers the
 * podcast as it is.
 */
export async function updatePodcast({
  tx,
  ...input
}: {
  tx: Tx;
  networkId: string;
  podcastId: string;
  changes: Partial<PodcastFields>;
  expectedVersion: number | undefined;
}): Promise<PodcastRow> {
  const current = await findPodcast({ db: tx, networkId: input.networkId, podcastId: input.podcastId });
  if (!current) throw notFound('Podcast');
  const version = versionToWrite('Podcast', current.version, input.expectedVersion);
  if (Object.keys(input.changes).length === 0) return current;
  const { excludedCategories, blockedAdvertiserIds, ...changes } = input.changes;
  const rules = await checkedPodcastRules({ db: tx, networkId: current.networkId, rules: { excludedCategories, blockedAdvertiserIds } });
  const [row] = await updateVersioned({
    tx,
    table: podcasts,
    networkId: current.networkId,
    set: { ...changes, ...rules },
    where: eq(podcasts.id, current.id),
    version,
  }).returning();
  if (!row) throw modifiedConcurrently('Podcast');
  return row;
}
