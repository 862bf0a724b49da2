'use client';

import { useQueryClient } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { SIGN_IN_TOKEN_PATTERN } from '@/server/services/sign-in/sign-in-link';
import { ConsoleBrand } from '@/app/(console)/_components/shell/console-brand';
import { Card, CardContent } from '@/app/(console)/_components/ui/card';
import { problemOf } from '@/app/(console)/_lib/problem';
import { SIGN_IN_PATH } from '@/app/(console)/_lib/providers';
import { signIn } from '@/app/(console)/_lib/session';
import { createOneOffClient } from '@/app/(console)/_lib/trpc';

/**
 * Exchanges the link's token (in the fragment: never sent to a server's logs) for a session key
 * (`POST /v1/sign-in`), keeps it in the tab like a pasted key, and opens the console. The token
 * is dropped from the address bar at once: it is used up either way.
 */
export function EmailSignIn() {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return; // once, also under React's development double effects
    started.current = true;
    const token = (new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '').trim();
    window.history.replaceState(null, '', window.location.pathname);
    if (!SIGN_IN_TOKEN_PATTERN.test(token)) {
      setFailure('This link is incomplete. Open the whole link from the email, or ask for a new one.');
      return;
    }
    createOneOffClient(token)
      .signIn.complete.mutate()
      .then((session) => {
        queryClient.clear();
        signIn(session.api_key.token);
        router.replace('/console');
      })
      .catch((caught: unknown) => {
        const problem = problemOf(caught);
        setFailure(
          problem.status === 409
            ? problem.detail
            : problem.status === 401
              ? 'This sign-in link is not valid. Open the whole link from the email, or ask for a new one.'
              : problem.detail,
        );
      });
  }, [queryClient, router]);

  return (
    <div className="w-full max-w-md">
      <ConsoleBrand />
      <Card>
        <CardContent className="px-6 py-6">
          <h1 className="text-xl font-semibold text-slate-900">{failure ? 'This link did not sign you in' : 'Signing you in…'}</h1>
          {failure ? (
            <>
              <p role="alert" className="mt-3 text-sm text-slate-700">
                {failure}
              </p>
              <a className="mt-4 inline-block text-sm font-medium text-indigo-700 underline underline-offset-2" href={SIGN_IN_PATH}>
                Ask for a new link
              </a>
            </>
          ) : (
            <p role="status" className="mt-3 flex items-center gap-2 text-sm text-slate-600">
              <Loader2 className="size-4 animate-spin" aria-hidden /> Checking your link.
            </p>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
