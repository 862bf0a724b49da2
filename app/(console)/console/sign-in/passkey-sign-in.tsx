'use client';

import { Fingerprint } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/app/(console)/_components/ui/button';
import { askForPasskey, browserPasskeyFailure, browserSupportsWebAuthn, rpIdOf } from '@/app/(console)/_lib/passkeys';
import { problemOf } from '@/app/(console)/_lib/problem';
import { createAnonymousClient } from '@/app/(console)/_lib/trpc';

type Outcome = { tone: 'quiet' | 'error'; message: string };

/** A person's sentence for what the API answered a passkey sign-in. */
function refusal(caught: unknown): string {
  const problem = problemOf(caught);
  switch (problem.status) {
    case 401:
      return 'This passkey is not registered here: it may have been removed from your account. Sign in with an emailed link, then add it again under “Your account”.';
    case 409:
      return 'The passkey prompt was open too long and its challenge expired. Try again.';
    case 429:
      return 'Too many failed attempts from this address. Wait a minute and try again.';
    default:
      return problem.detail;
  }
}

/**
 * "Sign in with a passkey": a challenge from the API (`POST /v1/sign-in/passkey/options`, no
 * credential), the browser's prompt for any passkey of this site, and the signature back to the
 * API (`POST /v1/sign-in/passkey`), which answers with a session key as an emailed link does.
 * Hidden in a browser without WebAuthn; until the script runs it is there, disabled, so the page
 * does not move when it is.
 */
export function PasskeySignIn({ hydrated, onSignedIn }: { hydrated: boolean; onSignedIn: (token: string) => void }) {
  const [supported, setSupported] = useState(true);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  useEffect(() => setSupported(browserSupportsWebAuthn()), []);

  async function signInWithPasskey() {
    setOutcome(null);
    setBusy(true);
    let rpId: string | undefined;
    try {
      const client = createAnonymousClient();
      const { challenge_id, options } = await client.signIn.passkeyOptions.mutate({});
      rpId = rpIdOf(options);
      const response = await askForPasskey(options);
      const session = await client.signIn.withPasskey.mutate({ challenge_id, response });
      onSignedIn(session.api_key.token);
    } catch (caught) {
      const browser = browserPasskeyFailure(caught, rpId);
      setOutcome(browser ? { tone: browser.cancelled ? 'quiet' : 'error', message: browser.message } : { tone: 'error', message: refusal(caught) });
      setBusy(false);
    }
  }

  if (!supported) return null;
  return (
    <div className="mt-3">
      <Button variant="secondary" className="w-full" loading={busy} disabled={!hydrated} onClick={signInWithPasskey}>
        <Fingerprint aria-hidden /> Sign in with a passkey
      </Button>
      {outcome?.tone === 'error' && (
        <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {outcome.message}
        </p>
      )}
      {outcome?.tone === 'quiet' && (
        <p role="status" className="mt-2 text-sm text-slate-600">
          {outcome.message}
        </p>
      )}
    </div>
  );
}
