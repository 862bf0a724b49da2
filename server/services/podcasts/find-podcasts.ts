import type { Queryable } from '@/db/client';
import { podcasts } from '@/db/schema';
import { networkPage, networkRow, type NetworkPage } from '@/server/services/page';

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
  return networkRow(podcasts, { db, networkId, id: podcastId, lock });
}

/** Podcasts of a network in id (= creation) order, after `afterId`. */
export async function listPodcasts(page: NetworkPage): Promise<PodcastRow[]> {
  return networkPage(podcasts, page);
}
