'use client';

import { createTRPCClient, httpBatchLink, httpLink, type TRPCLink } from '@trpc/client';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import { CONSOLE_BATCH_ITEMS } from '@/server/http/console-batch';
import type { AppRouter } from '@/server/routers';
import { readApiKey } from './session';

/**
 * The console talks to the same procedures as /v1, over tRPC at /api/trpc
 * (served by the custom node server, not a Next route). No transformer: dates
 * are ISO strings, exactly as on /v1.
 */
const TRPC_URL = '/api/trpc';

/**
 * React Query helpers typed from the router, from @trpc/tanstack-react-query
 * (`ConsoleProviders` mounts the provider):
 *
 *   const trpc = useTRPC();
 *   const networks = useQuery(trpc.networks.list.queryOptions({ limit: 200 }));
 *   const create = useMutation(trpc.networks.create.mutationOptions({
 *     onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.networks.pathKey() }),
 *   }));
 *
 * `useTRPCClient()` is the plain client, for a call outside React Query.
 */
export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

/** `RouterOutputs['webhooks']['get']`: what a procedure answers; `RouterInputs` what it takes. */
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;

/**
 * The library's infinite queries send the page's `direction` beside `cursor`; our list inputs are
 * strict objects that know `cursor` only (an unknown field is a 400, on /v1 as here), so it stays
 * in the browser. No procedure has a `direction` input of its own.
 */
const withoutPageDirection: TRPCLink<AppRouter> =
  () =>
  ({ op, next }) => {
    if (op.type !== 'query' || typeof op.input !== 'object' || op.input === null || !('direction' in op.input)) return next(op);
    const { direction: _direction, ...input } = op.input as Record<string, unknown>;
    return next({ ...op, input });
  };

/** The signed-in client: the key is read from sessionStorage on every request, so signing in or out needs no new client. */
export function createConsoleClient() {
  return createTRPCClient<AppRouter>({
    links: [
      withoutPageDirection,
      httpBatchLink({
        url: TRPC_URL,
        // The server refuses larger batches (CONSOLE_MAX_BATCH_SIZE, never below this).
        maxItems: CONSOLE_BATCH_ITEMS,
        headers() {
          const key = readApiKey();
          return key ? { Authorization: `Bearer ${key}` } : {};
        },
      }),
    ],
  });
}

/** A client that sends no credential: asking for a sign-in link. */
export function createAnonymousClient() {
  return createTRPCClient<AppRouter>({ links: [httpLink({ url: TRPC_URL })] });
}

/** A client for one call with a credential other than the signed-in key (sign-in check, invitation token, sign-in link). */
export function createOneOffClient(token: string) {
  return createTRPCClient<AppRouter>({
    links: [httpLink({ url: TRPC_URL, headers: () => ({ Authorization: `Bearer ${token}` }) })],
  });
}
