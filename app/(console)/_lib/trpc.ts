'use client';

import { createTRPCClient, getUntypedClient, httpBatchLink, httpLink, TRPCClientError } from '@trpc/client';
import type { AnyTRPCProcedure, inferProcedureInput, inferProcedureOutput, TRPCRouterRecord } from '@trpc/server';
import type { MutationOptions, QueryKey, UseQueryOptions } from '@tanstack/react-query';
import type { AppRouter } from '@/server/routers';
import { readApiKey } from './session';

/**
 * The console talks to the same procedures as /v1, over tRPC at /api/trpc
 * (served by the custom node server, not a Next route). No transformer: dates
 * are ISO strings, exactly as on /v1.
 */
export const TRPC_URL = '/api/trpc';

export type ConsoleError = TRPCClientError<AppRouter>;

/** A client that sends `token` (or, by default, the signed-in key) as the bearer credential. */
export function createConsoleClient(token?: () => string | null) {
  const bearer = token ?? readApiKey;
  return createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: TRPC_URL,
        maxItems: 10,
        headers() {
          const value = bearer();
          return value ? { Authorization: `Bearer ${value}` } : {};
        },
      }),
    ],
  });
}

/** A client for one call with a credential other than the signed-in key (sign-in check, invitation token). */
export function createOneOffClient(token: string) {
  return createTRPCClient<AppRouter>({
    links: [httpLink({ url: TRPC_URL, headers: () => ({ Authorization: `Bearer ${token}` }) })],
  });
}

/** The signed-in client (the key is read on every request, so sign-in/out needs no new client). */
export const consoleClient = createConsoleClient();
const untyped = getUntypedClient(consoleClient);

// ---------------------------------------------------------------------------
// Typed React Query helpers over the vanilla client: `api.<area>.<procedure>`
// ---------------------------------------------------------------------------

type PathKey = [string[]];
type ProcedureKey<TInput> = [string[], { input: TInput; type: 'query' }];

export interface QueryProcedure<TInput, TOutput> {
  /** Options for useQuery / useSuspenseQuery / prefetchQuery: `useQuery(api.networks.list.queryOptions({ limit: 50 }))`. */
  queryOptions(
    input: TInput,
    options?: Omit<UseQueryOptions<TOutput, ConsoleError, TOutput, ProcedureKey<TInput>>, 'queryKey' | 'queryFn'>,
  ): UseQueryOptions<TOutput, ConsoleError, TOutput, ProcedureKey<TInput>> & { queryKey: ProcedureKey<TInput> };
  /** The exact key of this query with this input (setQueryData, invalidate one). */
  queryKey(input: TInput): ProcedureKey<TInput>;
  /** Prefix of every query of this procedure, whatever the input (invalidate all). */
  pathKey(): PathKey;
  /** Call it outside React Query. */
  query(input: TInput, signal?: AbortSignal): Promise<TOutput>;
}

export interface MutationProcedure<TInput, TOutput> {
  /** Options for useMutation: `useMutation(api.networks.create.mutationOptions({ onSuccess }))`. */
  mutationOptions<TContext = unknown>(
    options?: Omit<MutationOptions<TOutput, ConsoleError, TInput, TContext>, 'mutationFn' | 'mutationKey'>,
  ): MutationOptions<TOutput, ConsoleError, TInput, TContext> & { mutationKey: PathKey };
  pathKey(): PathKey;
  mutate(input: TInput): Promise<TOutput>;
}

type DecorateProcedure<P extends AnyTRPCProcedure> = P['_def']['type'] extends 'query'
  ? QueryProcedure<inferProcedureInput<P>, inferProcedureOutput<P>>
  : MutationProcedure<inferProcedureInput<P>, inferProcedureOutput<P>>;

type DecorateRecord<R extends TRPCRouterRecord> = {
  [K in keyof R]: R[K] extends AnyTRPCProcedure
    ? DecorateProcedure<R[K]>
    : R[K] extends TRPCRouterRecord
      ? DecorateRecord<R[K]> & { pathKey(): PathKey }
      : never;
};

export type ConsoleApi = DecorateRecord<AppRouter['_def']['record']> & { pathKey(): PathKey };

function decorate(path: string[]): unknown {
  const dotted = path.join('.');
  const helpers: Record<string, unknown> = {
    pathKey: (): PathKey => [path],
    queryKey: (input: unknown) => [path, { input, type: 'query' }],
    queryOptions: (input: unknown, options?: object) => ({
      ...options,
      queryKey: [path, { input, type: 'query' }],
      queryFn: ({ signal }: { signal: AbortSignal }) => untyped.query(dotted, input, { signal }),
    }),
    query: (input: unknown, signal?: AbortSignal) => untyped.query(dotted, input, { signal }),
    mutationOptions: (options?: object) => ({
      ...options,
      mutationKey: [path],
      mutationFn: (input: unknown) => untyped.mutation(dotted, input),
    }),
    mutate: (input: unknown) => untyped.mutation(dotted, input),
  };
  return new Proxy(helpers, {
    get(target, prop) {
      if (typeof prop !== 'string') return undefined;
      if (prop in target) return target[prop];
      return decorate([...path, prop]);
    },
  });
}

/**
 * Every procedure of the API, typed from the router:
 *
 *   const networks = useQuery(api.networks.list.queryOptions({ limit: 200 }));
 *   const create = useMutation(api.networks.create.mutationOptions({
 *     onSuccess: () => queryClient.invalidateQueries({ queryKey: api.networks.pathKey() }),
 *   }));
 */
export const api = decorate([]) as ConsoleApi;

export function isConsoleError(error: unknown): error is ConsoleError {
  return error instanceof TRPCClientError;
}

export type { QueryKey };
