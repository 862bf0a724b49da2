'use client';

import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, type ReactNode } from 'react';
import { Toaster } from '@/app/(console)/_components/ui/toaster';
import { statusOf } from './problem';
import { REVOKED_NOTICE, readApiKey, signOut } from './session';
import { createConsoleClient, TRPCProvider } from './trpc';

export const SIGN_IN_PATH = '/console/sign-in';

/**
 * React Query and tRPC for the console (`useTRPC()` works below it). Any 401
 * from any query or mutation means the key no longer works (revoked, expired,
 * or removed): forget it and go to sign-in with a message. Client errors (4xx)
 * are not retried.
 */
export function ConsoleProviders({ children }: { children: ReactNode }) {
  const router = useRouter();
  const [queryClient] = useState(() => {
    const onError = (error: unknown) => {
      if (statusOf(error) !== 401 || !readApiKey()) return;
      signOut(REVOKED_NOTICE);
      client.clear();
      router.replace(SIGN_IN_PATH);
    };
    const client: QueryClient = new QueryClient({
      queryCache: new QueryCache({ onError }),
      mutationCache: new MutationCache({ onError }),
      defaultOptions: {
        queries: {
          staleTime: 15_000,
          refetchOnWindowFocus: false,
          retry: (failures, error) => {
            const status = statusOf(error);
            return (status === 0 || status >= 500) && failures < 2;
          },
        },
        mutations: { retry: false },
      },
    });
    return client;
  });
  const [trpcClient] = useState(createConsoleClient);
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
        <Toaster />
      </TRPCProvider>
    </QueryClientProvider>
  );
}
