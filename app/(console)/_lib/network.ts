'use client';

import { useQuery } from '@tanstack/react-query';
import { useParams } from 'next/navigation';
import { useTRPC } from './trpc';

/** The network in the URL (/console/n/[networkId]/…). Only inside network pages. */
export function useNetworkId(): string {
  const params = useParams<{ networkId?: string }>();
  if (!params.networkId) throw new Error('useNetworkId() is only available under /console/n/[networkId]/.');
  return decodeURIComponent(params.networkId);
}

/** Link to a section of a network: networkPath(id, 'webhooks') → /console/n/<id>/webhooks. */
export function networkPath(networkId: string, section = ''): string {
  const base = `/console/n/${encodeURIComponent(networkId)}`;
  return section ? `${base}/${section.replace(/^\//, '')}` : base;
}

/** The signed-in key: { key_id, key_name, super_user, scopes: [{network_id, role}] }. */
export function useMe() {
  const trpc = useTRPC();
  return useQuery(trpc.me.get.queryOptions(undefined, { staleTime: 60_000 }));
}

/** The networks the key can see (all of them for a super_user); the first 200, which is what the switcher shows. */
export function useNetworks() {
  const trpc = useTRPC();
  return useQuery(trpc.networks.list.queryOptions({ limit: 200 }, { staleTime: 60_000 }));
}

export type NetworkRole = 'administrator' | 'read_only';

/**
 * The key's effective role on a network: a super_user administers every
 * network. `undefined` while loading or without access. Use it to hide or
 * disable actions (the API still enforces them).
 */
export function useNetworkRole(networkId: string): NetworkRole | undefined {
  const me = useMe().data;
  if (!me) return undefined;
  if (me.super_user) return 'administrator';
  return me.scopes.find((scope) => scope.network_id === networkId)?.role;
}

/** True when the key may change things on this network (administrator or super_user). */
export function useCanAdminister(networkId: string): boolean {
  return useNetworkRole(networkId) === 'administrator';
}

/**
 * One network the key can see: from the switcher's list (no request of its own), else its own
 * `networks.get` (a super_user's network beyond the list's first 200). `undefined` while loading or
 * without access.
 */
export function useNetwork(networkId: string) {
  const trpc = useTRPC();
  const networks = useNetworks();
  const role = useNetworkRole(networkId);
  const listed = networks.data?.items.find((network) => network.id === networkId);
  const own = useQuery(
    trpc.networks.get.queryOptions({ networkId }, { enabled: networks.isSuccess && !listed && role !== undefined, staleTime: 60_000 }),
  );
  return listed ?? own.data;
}
