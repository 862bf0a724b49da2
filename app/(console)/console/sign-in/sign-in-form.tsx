'use client';

import { useQueryClient } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useEffect, useState, type FormEvent } from 'react';
import { BRAND_ICON as Brand } from '@/app/(console)/_components/shell/nav-items';
import { Button } from '@/app/(console)/_components/ui/button';
import { Card, CardContent } from '@/app/(console)/_components/ui/card';
import { FieldShell } from '@/app/(console)/_components/ui/form';
import { Input } from '@/app/(console)/_components/ui/input';
import { problemOf } from '@/app/(console)/_lib/problem';
import { signIn, takeSignInNotice } from '@/app/(console)/_lib/session';
import { createOneOffClient } from '@/app/(console)/_lib/trpc';

const TOKEN_SHAPE = /^sk_(test|live)_[A-Za-z0-9]+$/;

/** Only same-site console paths are followed after sign-in. */
function safeNext(next: string | null): string {
  return next && next.startsWith('/console/') && !next.startsWith('//') ? next : '/console';
}

export function SignInForm() {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [apiKey, setApiKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The form is in the prerendered HTML: until this script runs, a submit would be the browser's
  // own (a GET, the key in the URL). So the button waits for it, and the form says POST regardless.
  const [hydrated, setHydrated] = useState(false);

  useEffect(() => {
    setHydrated(true);
    setNotice(takeSignInNotice());
  }, []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const token = apiKey.trim();
    setError(null);
    if (!token) return setError('Paste your API key.');
    if (!TOKEN_SHAPE.test(token)) return setError('That does not look like an API key. Keys start with sk_test_ or sk_live_.');
    setBusy(true);
    try {
      // Check the key before keeping it: the `me` procedure answers for any valid key.
      await createOneOffClient(token).me.get.query();
      queryClient.clear();
      signIn(token);
      setApiKey('');
      // Read at submit, not with useSearchParams: that would keep the form out of the prerendered HTML
      // (a client-rendering bailout), and the page's largest paint would wait for the JavaScript.
      router.replace(safeNext(new URLSearchParams(window.location.search).get('next')));
    } catch (caught) {
      const problem = problemOf(caught);
      setError(
        problem.status === 401
          ? `This key was not accepted: it is unknown, revoked or expired. ${problem.detail}`
          : problem.status === 429
            ? 'Too many failed attempts from this address. Wait a minute and try again.'
            : problem.detail,
      );
      setBusy(false);
    }
  }

  return (
    <div className="w-full max-w-md">
      <div className="mb-6 flex items-center justify-center gap-2 text-slate-900">
        <Brand className="size-6 text-indigo-600" aria-hidden />
        <span className="text-lg font-semibold">Ad Network Console</span>
      </div>
      <Card>
        <CardContent className="px-6 py-6">
          <h1 className="text-xl font-semibold text-slate-900">Sign in</h1>
          <p className="mt-1 text-sm text-slate-600">
            Paste an API key. It is kept in this browser tab only and forgotten when you close it or sign out.
          </p>
          {notice && (
            <p role="status" className="mt-4 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
              {notice}
            </p>
          )}
          <form noValidate method="post" onSubmit={submit} className="mt-5 space-y-4">
            <FieldShell id="api-key" label="API key" error={error ?? undefined} description="Starts with sk_test_ or sk_live_.">
              <Input
                id="api-key"
                name="api-key"
                type="password"
                autoComplete="off"
                spellCheck={false}
                value={apiKey}
                onChange={(event) => setApiKey(event.target.value)}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? 'api-key-error api-key-description' : 'api-key-description'}
                placeholder="sk_test_…"
                autoFocus
              />
            </FieldShell>
            <Button type="submit" className="w-full" loading={busy} disabled={!hydrated}>
              <KeyRound aria-hidden /> Sign in
            </Button>
          </form>
        </CardContent>
      </Card>
      <p className="mt-6 text-center text-sm text-slate-600">
        No key yet? Ask a network administrator for an invitation, or read the{' '}
        <a className="font-medium text-indigo-700 underline underline-offset-2" href="/docs">
          API reference
        </a>
        .
      </p>
    </div>
  );
}
