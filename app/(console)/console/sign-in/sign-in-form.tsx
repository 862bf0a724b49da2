'use client';

import { useQueryClient } from '@tanstack/react-query';
import { KeyRound, Mail } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useEffect, useState, type FormEvent } from 'react';
import { ConsoleBrand } from '@/app/(console)/_components/shell/console-brand';
import { Button } from '@/app/(console)/_components/ui/button';
import { Card, CardContent } from '@/app/(console)/_components/ui/card';
import { FieldShell } from '@/app/(console)/_components/ui/form';
import { Input } from '@/app/(console)/_components/ui/input';
import { problemOf } from '@/app/(console)/_lib/problem';
import { signIn, takeSignInNotice } from '@/app/(console)/_lib/session';
import { createAnonymousClient, createOneOffClient } from '@/app/(console)/_lib/trpc';
import { PasskeySignIn } from './passkey-sign-in';

const TOKEN_SHAPE = /^sk_(test|live)_[A-Za-z0-9]+$/;
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+$/;

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

  /** Keep the key in the tab, as the emailed link's page does, and go on into the console. */
  function finishSignIn(token: string) {
    queryClient.clear();
    signIn(token);
    // Read at submit, not with useSearchParams: that would keep the form out of the prerendered HTML
    // (a client-rendering bailout), and the page's largest paint would wait for the JavaScript.
    router.replace(safeNext(new URLSearchParams(window.location.search).get('next')));
  }

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
      setApiKey('');
      finishSignIn(token);
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
      <ConsoleBrand />
      <Card>
        <CardContent className="px-6 py-6">
          <h1 className="text-xl font-semibold text-slate-900">Sign in</h1>
          <p className="mt-1 text-sm text-slate-600">
            With the email address you were invited at, a passkey you added, or an API key. Either way, only this browser tab is signed in.
          </p>
          {notice && (
            <p role="status" className="mt-4 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
              {notice}
            </p>
          )}
          <EmailSignIn hydrated={hydrated} />
          <PasskeySignIn hydrated={hydrated} onSignedIn={finishSignIn} />
          <div className="my-6 flex items-center gap-3 text-xs font-medium tracking-wide text-slate-500 uppercase" aria-hidden>
            <span className="h-px flex-1 bg-slate-200" />
            or
            <span className="h-px flex-1 bg-slate-200" />
          </div>
          <form noValidate method="post" onSubmit={submit} className="space-y-4">
            <FieldShell
              id="api-key"
              label="API key"
              error={error ?? undefined}
              description="For integrators and operators: starts with sk_test_ or sk_live_, forgotten when you close the tab or sign out."
            >
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
              />
            </FieldShell>
            <Button type="submit" variant="secondary" className="w-full" loading={busy} disabled={!hydrated}>
              <KeyRound aria-hidden /> Sign in with API key
            </Button>
          </form>
        </CardContent>
      </Card>
      <p className="mt-6 text-center text-sm text-slate-600">
        No account yet? Ask a network administrator for an invitation, or read the{' '}
        <a className="font-medium text-indigo-700 underline underline-offset-2" href="/docs">
          API reference
        </a>
        .
      </p>
    </div>
  );
}

/**
 * The person's way in, offered first: an emailed one-time link (`POST /v1/sign-in/email`). The
 * answer is the same whether or not the address has an account, and so is what this says.
 */
function EmailSignIn({ hydrated }: { hydrated: boolean }) {
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<{ email: string; minutes: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const address = email.trim();
    if (!address) return setError('Enter your email address.');
    // The server checks the address fully (a 400 names what is wrong); zod stays off this page's first load.
    if (!EMAIL_SHAPE.test(address)) return setError('That does not look like an email address.');
    setBusy(true);
    try {
      const answer = await createAnonymousClient().signIn.requestLink.mutate({ email: address });
      setSentTo({ email: answer.email, minutes: Math.round(answer.link_expires_in_seconds / 60) });
    } catch (caught) {
      const problem = problemOf(caught);
      setError(problem.status === 429 ? 'Too many links asked for. Wait a while, then try again.' : problem.detail);
    } finally {
      setBusy(false);
    }
  }

  if (sentTo) {
    return (
      <div role="status" className="mt-5 rounded-md border border-emerald-300 bg-emerald-50 px-4 py-3 text-sm text-emerald-800">
        <p className="font-medium">Check your inbox</p>
        <p className="mt-1">
          If {sentTo.email} has an account, a sign-in link is on its way. It works once, for {sentTo.minutes} minutes. Open it in this browser.
        </p>
        <Button variant="ghost" size="sm" className="mt-2 -ml-2" onClick={() => setSentTo(null)}>
          Use another address
        </Button>
      </div>
    );
  }
  return (
    <form noValidate method="post" onSubmit={submit} className="mt-5 space-y-4">
      <FieldShell id="email" label="Email" error={error ?? undefined}>
        <Input
          id="email"
          name="email"
          type="email"
          autoComplete="email"
          spellCheck={false}
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'email-error' : undefined}
          placeholder="you@example.com"
          autoFocus
        />
      </FieldShell>
      <Button type="submit" className="w-full" loading={busy} disabled={!hydrated}>
        <Mail aria-hidden /> Email me a link
      </Button>
    </form>
  );
}
