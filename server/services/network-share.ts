import { config } from '@/server/config';

/**
 * No tenant can slow another (docs/SECURITY.md, invariant 9): one network holds at most
 * WORKER_NETWORK_SHARE of a worker pool's slots — a fraction of them (below 1) or a number of
 * slots (1 and above), never fewer than one nor more than the pool.
 *
 * Per worker process and per pool: of the main pool's WORKER_CONCURRENCY slots for webhook
 * deliveries (server/services/webhooks/lanes.ts), of the synthesis pool's
 * WORKER_SYNTHESIS_CONCURRENCY for creatives (server/services/creatives/synthesis-lanes.ts). A job
 * beyond its network's share is put back at once, into the network's lanes when the network is
 * slow, and holds no slot; a network under its share never waits for it.
 */
export function networkSlots(poolSize: number, share: number = config().WORKER_NETWORK_SHARE): number {
  const slots = share < 1 ? Math.floor(share * poolSize) : share;
  return Math.min(poolSize, Math.max(1, slots));
}
