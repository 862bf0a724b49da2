'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/app/(console)/_lib/trpc';

/** "30 days", "1 day". */
export const daysLabel = (days: number) => `${days} ${days === 1 ? 'day' : 'days'}`;

/**
 * The network's `max_key_lifetime_days` (null: no limit; undefined while loading), for the dialogs
 * that mint a key. Saving the network's settings invalidates it (networks' path key).
 */
export function useKeyLifetimeLimit(networkId: string): number | null | undefined {
  const trpc = useTRPC();
  return useQuery(trpc.networks.get.queryOptions({ networkId }, { staleTime: 60_000 })).data?.max_key_lifetime_days;
}

/** The help under a new key's expiry field: with a limit, what it allows and what an empty end gets. */
export function expiryDescription(limitDays: number | null | undefined): string {
  return limitDays
    ? `Keys of this network live at most ${daysLabel(limitDays)}; leave the end empty for the longest allowed. In your local time.`
    : 'Leave empty for a key that does not expire. In your local time.';
}
