'use client';

import { useQueryClient } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { NOTIFICATION_DESCRIPTIONS, UNSUBSCRIBE_TOKEN_PATTERN, isNotificationKind, type NotificationKind } from '@/domain/notifications';
import { ConsoleBrand } from '@/app/(console)/_components/shell/console-brand';
import { Button } from '@/app/(console)/_components/ui/button';
import { Card, CardContent } from '@/app/(console)/_components/ui/card';
import { IntentLink } from '@/app/(console)/_components/ui/intent-link';
import { problemOf, problemSentence } from '@/app/(console)/_lib/problem';
import { createAnonymousClient, useTRPC } from '@/app/(console)/_lib/trpc';

/** The link's token (`<person id>.<kind>.<signature>`, in the fragment) and its kind; null kind for anything else. */
function readLink(): { token: string; kind: NotificationKind | null } {
  const token = (new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '').trim();
  const kind = token.split('.')[1] ?? '';
  return { token, kind: UNSUBSCRIBE_TOKEN_PATTERN.test(token) && isNotificationKind(kind) ? kind : null };
}

type Phase = 'ready' | 'sending' | 'done' | 'invalid' | { failure: string };

const consoleLink = 'mt-4 inline-block text-sm font-medium text-indigo-700 underline underline-offset-2';

/**
 * A notice's footer link: says which kind of email it stops and turns it off only when the button
 * is pressed (`POST /v1/notifications/unsubscribe`, the token as the credential, no API key), since
 * mail scanners open links. The token stays in the address bar: it keeps working, and does one
 * thing only.
 */
export function Unsubscribe() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [link, setLink] = useState<ReturnType<typeof readLink> | null>(null);
  const [phase, setPhase] = useState<Phase>('ready');
  const heading = useRef<HTMLHeadingElement>(null);

  // Read on arrival, and again when another link is opened in this tab (only the fragment changes).
  useEffect(() => {
    const read = () => {
      setLink(readLink());
      setPhase('ready');
    };
    read();
    window.addEventListener('hashchange', read);
    return () => window.removeEventListener('hashchange', read);
  }, []);

  // The button is gone once it has answered: the heading says what happened, and takes the focus.
  useEffect(() => {
    if (phase === 'done' || phase === 'invalid') heading.current?.focus();
  }, [phase]);

  async function turnOff(token: string) {
    setPhase('sending');
    try {
      await createAnonymousClient().notifications.unsubscribe.mutate({ token });
      setPhase('done');
      // A session in this tab shows the settings from the API again.
      void queryClient.invalidateQueries({ queryKey: trpc.notifications.pathKey() });
    } catch (error) {
      setPhase(problemOf(error).status === 401 ? 'invalid' : { failure: problemSentence(error, 'turn these emails off') });
    }
  }

  const title = !link
    ? 'Turn off emails'
    : !link.kind
      ? 'This link is incomplete'
      : phase === 'done'
        ? 'Emails turned off'
        : phase === 'invalid'
          ? 'This link is not valid'
          : 'Turn off emails';

  return (
    <div className="w-full max-w-md">
      <ConsoleBrand />
      <Card>
        <CardContent className="px-6 py-6">
          <h1 ref={heading} tabIndex={-1} className="text-xl font-semibold text-slate-900 focus:outline-none">
            {title}
          </h1>
          {!link ? (
            <p role="status" className="mt-3 flex items-center gap-2 text-sm text-slate-600">
              <Loader2 className="size-4 animate-spin" aria-hidden /> Reading your link.
            </p>
          ) : !link.kind ? (
            <>
              <p role="alert" className="mt-3 text-sm text-slate-700">
                This unsubscribe link is incomplete. Open the whole link from the email, or choose which emails you get under Your account in the
                console.
              </p>
              <IntentLink className={consoleLink} href="/console">
                Open the console
              </IntentLink>
            </>
          ) : phase === 'done' ? (
            <>
              <p role="status" className="mt-3 text-sm text-slate-700">
                Done: you will not get these emails. Turn them on again under Your account in the console.
              </p>
              <IntentLink className={consoleLink} href="/console">
                Open the console
              </IntentLink>
            </>
          ) : phase === 'invalid' ? (
            <>
              <p role="alert" className="mt-3 text-sm text-slate-700">
                This unsubscribe link is not valid: nothing was changed. Open the whole link from the email, or turn these emails off under Your
                account in the console.
              </p>
              <IntentLink className={consoleLink} href="/console">
                Open the console
              </IntentLink>
            </>
          ) : (
            <>
              <p className="mt-3 text-sm text-slate-700" data-testid="unsubscribe-kind">
                Stop emails about: <strong className="font-medium text-slate-900">{NOTIFICATION_DESCRIPTIONS[link.kind]}</strong>
              </p>
              <p className="mt-2 text-sm text-slate-600">
                Only this kind of email stops, for the person it was sent to; other notices keep coming. Nothing changes until you press the button.
              </p>
              {typeof phase === 'object' && (
                <p role="alert" className="mt-4 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
                  {phase.failure}
                </p>
              )}
              <Button className="mt-5 w-full" loading={phase === 'sending'} onClick={() => turnOff(link.token)}>
                Turn these emails off
              </Button>
            </>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
