import { and, asc, eq, gt, type SQL } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { podcasts } from '@/db/schema';
import type { NetworkPage } from '@/server/services/page';

export type PodcastRow = typeof podcasts.$inferSelect;

/** One podcast of the network, or undefined (also for another network's id: ids are not leaked). */
export async function findPodcast({
  db,
  networkId,
  podcastId,
  lock,
}: {
  db: Queryable;
  networkId: string;
  podcastId: string;
  lock?: 'update';
}): Promise<PodcastRow | undefined> {
  const query = db
    .select()
    .from(podcasts)
    .where(and(eq(podcasts.networkId, networkId), eq(podcasts.id, podcastId)));
  const [row] = lock ? await query.for(lock) : await query;
  return row;
}

/** Podcasts of a network in id (= creation) order, after `afterId`. */
export async function listPodcasts({ db, networkId, afterId, take }: NetworkPage): Promise<PodcastRow[]> {
  const conditions: SQL[] = [eq(podcasts.networkId, networkId)];
  if (afterId) conditions.push(gt(podcasts.id, afterId));
  return db
    .select()
    .from(podcasts)
    .where(and(...conditions))
    .orderBy(asc(podcasts.id))
    .limit(take);
}
