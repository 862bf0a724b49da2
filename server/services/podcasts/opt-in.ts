import { eq, sql, type SQL } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { podcasts } from '@/db/schema';
import { notFound } from '@/server/errors';
import { recordEvent } from '@/server/services/events/record-event';
import { findPodcast, type PodcastRow } from './find-podcasts';
import { updateVersioned } from '@/server/services/optimistic-lock';

/**
 * The podcast, row-locked first, moved to `status` (with `optedInAt`) unless it is in it already:
 * the row either way, and whether it moved. Opting in and out are idempotent through here.
 */
async function setOptInStatus({
  tx,
  networkId,
  podcastId,
  status,
  optedInAt,
}: {
  tx: Tx;
  networkId: string;
  podcastId: string;
  status: 'opted_in' | 'opted_out';
  optedInAt: SQL | null;
}): Promise<{ row: PodcastRow; moved: boolean }> {
  const current = await findPodcast({ db: tx, networkId, podcastId, lock: 'update' });
  if (!current) throw notFound('Podcast');
  if (current.optInStatus === status) return { row: current, moved: false };
  const [row] = await updateVersioned({
    tx,
    table: podcasts,
    networkId,
    set: { optInStatus: status, optedInAt },
    where: eq(podcasts.id, current.id),
  }).returning();
  return { row: row!, moved: true };
}

/**
 * Opt a podcast in and record `optin.completed` on the same transaction.
 * Idempotent: an opted-in podcast is answered as it is, with no second event.
 * The row is locked first, so of concurrent opt-ins one changes it and records
 * the event; the others wait, then see it opted in. A podcast that opted out
 * may opt in again, which is a new opt-in (and a new event).
 */
export async function optInPodcast({ tx, networkId, podcastId }: { tx: Tx; networkId: string; podcastId: string }): Promise<PodcastRow> {
  const { row, moved } = await setOptInStatus({ tx, networkId, podcastId, status: 'opted_in', optedInAt: sql`now()` });
  if (moved) await recordEvent({ tx, networkId, type: 'optin.completed', data: { podcast_id: row.id, name: row.name, host_name: row.hostName } });
  return row;
}

/**
 * Opt a podcast out (also one that never opted in: an explicit refusal).
 * Idempotent like opt-in; `opted_in_at` is cleared, since it no longer
 * describes the podcast's state. No event: the spec defines none for it.
 */
export async function optOutPodcast({ tx, networkId, podcastId }: { tx: Tx; networkId: string; podcastId: string }): Promise<PodcastRow> {
  return (await setOptInStatus({ tx, networkId, podcastId, status: 'opted_out', optedInAt: null })).row;
}
