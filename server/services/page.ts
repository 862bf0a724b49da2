import type { Queryable } from '@/db/client';

/** What every list service of a network takes: the network, and the keyset page after `afterId`. */
export interface NetworkPage {
  db: Queryable;
  networkId: string;
  afterId: string | undefined;
  take: number;
}
