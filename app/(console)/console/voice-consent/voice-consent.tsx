'use client';

import { useQueryClient } from '@tanstack/react-query';
import { CheckCircle2 } from 'lucide-react';
import { useRef, useState } from 'react';
import { scopeInWords, VOICE_CONSENT_TOKEN_PATTERN } from '@/domain/voice-consent';
import type { VoiceConsentLinkView } from '@/server/routers/voice-consents/get-current-voice-consent.types';
import { LinkPage, useLink } from '@/app/(console)/_components/link-page';
import { Button } from '@/app/(console)/_components/ui/button';
import { ConfirmDialog } from '@/app/(console)/_components/ui/confirm-dialog';
import { formatDateTime } from '@/app/(console)/_lib/dates';
import { problemOf, problemSentence } from '@/app/(console)/_lib/problem';
import { createOneOffClient } from '@/app/(console)/_lib/trpc';

type Decision = 'grant' | 'refuse' | 'revoke';

const NOT_VALID = 'This voice consent link is not valid, or it has expired. Ask the network that sent it for a new one.';

/**
 * The host's consent page, reached from the emailed link: who asks, for what, the statement, and
 * Grant / Refuse — then, once granted, Revoke. The token is the credential (`createOneOffClient`,
 * no API key) and opens this one consent; it stays in the address bar, since the same link revokes
 * later. Nothing is decided by opening the page (mail scanners open links): only the buttons decide.
 */
export function VoiceConsent() {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<Decision | null>(null);
  // The failure of a decision on a link: another link opened in this tab shows none.
  const [failure, setFailure] = useState<{ token: string; text: string } | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const link = useLink({
    name: 'voice-consent',
    pattern: VOICE_CONSENT_TOKEN_PATTERN,
    read: (token) => createOneOffClient(token).voiceConsents.current.query({}),
  });

  async function decide(decision: Decision, view: VoiceConsentLinkView) {
    const token = link.token!;
    setBusy(decision);
    setFailure(null);
    const client = createOneOffClient(token).voiceConsents;
    try {
      const decided =
        decision === 'grant'
          ? await client.grant.mutate({ statement_version: view.statement.version })
          : decision === 'refuse'
            ? await client.refuse.mutate({ statement_version: view.statement.version })
            : await client.revokeCurrent.mutate({});
      queryClient.setQueryData(link.queryKey, decided);
      heading.current?.focus();
    } catch (error) {
      const problem = problemOf(error);
      // Decided elsewhere meanwhile (another tab, the network): show what it is now, and say so.
      if (problem.status === 409) void link.query.refetch();
      setFailure({ token, text: problem.status === 404 ? NOT_VALID : problemSentence(error, `${decision} consent`) });
      throw error;
    } finally {
      setBusy(null);
    }
  }

  return (
    <LinkPage
      link={link}
      title={(view) => (view ? `Voice consent for ${view.podcast_name}` : 'Voice consent')}
      notValid={NOT_VALID}
      reading="read the consent request"
      heading={heading}
    >
      {(view) => (
        <ConsentRequest
          view={view}
          busy={busy}
          failure={failure?.token === link.token ? failure.text : null}
          onDecide={(decision) => decide(decision, view)}
        />
      )}
    </LinkPage>
  );
}

function ConsentRequest({
  view,
  busy,
  failure,
  onDecide,
}: {
  view: VoiceConsentLinkView;
  busy: Decision | null;
  failure: string | null;
  onDecide: (decision: Decision) => Promise<void>;
}) {
  const scope = scopeInWords(view.scope, view.advertisers);
  return (
    <>
      <p className="mt-3 text-sm text-slate-700">
        <strong>{view.network_name}</strong> asks you, {view.host_name}, for consent to make host-read ads for <strong>{view.podcast_name}</strong>{' '}
        with a synthetic copy of your voice.
      </p>
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-md bg-slate-50 px-4 py-3 text-sm">
        <dt className="font-medium text-slate-600">Covers</dt>
        <dd className="text-slate-900" data-testid="consent-scope">
          {scope.charAt(0).toUpperCase() + scope.slice(1)}
        </dd>
        <dt className="font-medium text-slate-600">Until</dt>
        <dd className="text-slate-900">{view.expires_at ? formatDateTime(view.expires_at) : 'You revoke it'}</dd>
      </dl>

      <ConsentState view={view} />

      <section aria-labelledby="statement-heading" className="mt-5">
        <h2 id="statement-heading" className="text-base font-semibold text-slate-900">
          The consent statement
        </h2>
        <div
          className="mt-2 space-y-3 rounded-md border border-slate-200 px-4 py-3 text-sm leading-relaxed text-slate-800"
          data-testid="consent-statement"
        >
          {view.statement.text.split('\n\n').map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </div>
        <p className="mt-2 text-xs break-all text-slate-600">
          Version {view.statement.version} · SHA-256 <span className="font-mono">{view.statement.sha256}</span>
        </p>
      </section>

      {failure && (
        <p role="alert" className="mt-4 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {failure}
        </p>
      )}

      {view.status === 'pending' && (
        <div className="mt-5 flex flex-col gap-2 sm:flex-row-reverse">
          <Button
            size="lg"
            className="w-full sm:w-auto"
            loading={busy === 'grant'}
            disabled={busy !== null}
            onClick={() => void onDecide('grant').catch(() => undefined)}
          >
            Grant consent
          </Button>
          <Button
            size="lg"
            variant="secondary"
            className="w-full sm:w-auto"
            loading={busy === 'refuse'}
            disabled={busy !== null}
            onClick={() => void onDecide('refuse').catch(() => undefined)}
          >
            Refuse
          </Button>
        </div>
      )}
      {view.status === 'granted' && (
        <div className="mt-5">
          <ConfirmDialog
            trigger={
              <Button size="lg" variant="danger" className="w-full sm:w-auto">
                Revoke consent
              </Button>
            }
            title="Revoke your consent?"
            description={`No new ads will be made in your voice for ${view.podcast_name} from now on. Ads made before are not undone.`}
            confirmLabel="Revoke consent"
            error={failure ?? undefined}
            onConfirm={() => onDecide('revoke')}
          />
        </div>
      )}
    </>
  );
}

/** Where the request stands, in a sentence; announced when it changes. */
function ConsentState({ view }: { view: VoiceConsentLinkView }) {
  const state: { tone: string; text: string; done?: true } = (() => {
    switch (view.status) {
      case 'pending':
        return {
          tone: 'bg-indigo-50 text-slate-800',
          text: `Waiting for your answer. This link works until ${formatDateTime(view.link_expires_at)}.`,
        };
      case 'granted':
        return {
          tone: 'bg-emerald-50 text-emerald-800',
          text: `You granted consent on ${formatDateTime(view.granted_at)}. You can revoke it here until ${formatDateTime(view.link_expires_at)}, or at any time by telling ${view.network_name}.`,
          done: true,
        };
      case 'refused':
        return {
          tone: 'bg-slate-100 text-slate-800',
          text: `You refused on ${formatDateTime(view.refused_at)}. Nothing will be made in your voice.`,
        };
      case 'revoked':
        return {
          tone: 'bg-amber-50 text-amber-900',
          text:
            view.revoked_by === 'host'
              ? `You revoked your consent on ${formatDateTime(view.revoked_at)}.`
              : `${view.network_name} withdrew this request on ${formatDateTime(view.revoked_at)}.`,
        };
      case 'expired':
        return { tone: 'bg-slate-100 text-slate-800', text: 'This consent has expired.' };
    }
  })();
  return (
    <p role="status" data-testid="consent-state" className={`mt-4 flex items-start gap-2 rounded-md px-3 py-2 text-sm ${state.tone}`}>
      {state.done && <CheckCircle2 className="mt-0.5 size-4 shrink-0" aria-hidden />}
      <span>{state.text}</span>
    </p>
  );
}
