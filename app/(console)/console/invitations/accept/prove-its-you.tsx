'use client';

import { useEffect, useId, useRef, useState, type Ref } from 'react';
import { acceptInvitationInput } from '@/server/routers/invitations/accept-invitation.types';
import { Button } from '@/app/(console)/_components/ui/button';
import { FieldShell, Form, FormError, FormField, useZodForm } from '@/app/(console)/_components/ui/form';
import { Input } from '@/app/(console)/_components/ui/input';
import { Label } from '@/app/(console)/_components/ui/label';
import { problemOf, type ConsoleProblem } from '@/app/(console)/_lib/problem';
import { readApiKey, useApiKey } from '@/app/(console)/_lib/session';
import { createOneOffClient } from '@/app/(console)/_lib/trpc';

export interface AcceptedInvitation {
  token: string;
  networkId: string;
  keyName: string;
}

/** The email named by the API's 403 for an invitation whose email already has an account (null when it cannot be read). */
export function existingAccountEmail(detail: string): string | null {
  return /account with the email (\S+) already exists/i.exec(detail)?.[1] ?? null;
}

const API_KEY_SHAPE = /^sk_(test|live)_[A-Za-z0-9]+$/;
// How much of a key the console shows elsewhere (the API keys page lists keys by this start).
const KEY_START_LENGTH = 12;

type Proof = 'signed-in' | 'pasted';

/** Why the API refused the key or the invitation, as a sentence; `onKey` when the pasted key is what to fix. */
function refusal(problem: ConsoleProblem, invitedEmail: string | null, proof: Proof): { message: string; onKey: boolean } | null {
  const theKey = proof === 'signed-in' ? 'The key this tab is signed in with' : 'That key';
  const useYourOwn = proof === 'signed-in' ? 'Choose “Paste another key” and paste one of your own API keys.' : 'Paste one of your own API keys.';
  switch (problem.status) {
    case 403:
      if (/service account/i.test(problem.detail)) {
        return { message: `${theKey} belongs to a service account, and invitations are for people. ${useYourOwn}`, onKey: true };
      }
      if (/does not prove who you are/i.test(problem.detail)) {
        return {
          message: `${theKey} was made for you by an administrator, so it cannot vouch for you. Use a key you received on accepting an invitation or made yourself.`,
          onKey: true,
        };
      }
      return { message: `${theKey} belongs to someone else, not to ${invitedEmail ?? 'the invited person'}. ${useYourOwn}`, onKey: true };
    case 401:
      if (/invitation/i.test(problem.detail)) {
        return { message: 'This invitation link is not valid. Check that you copied the whole link.', onKey: false };
      }
      return { message: `${theKey} was not accepted: it is unknown, revoked or expired. ${useYourOwn}`, onKey: true };
    case 409:
      return { message: `This invitation can no longer be used: ${problem.detail}`, onKey: false };
    case 429:
      return { message: 'Too many failed attempts from this address. Wait a minute and try again.', onKey: false };
    default:
      return null;
  }
}

/**
 * The invited email already has an account, so the invitation token alone is
 * refused: the person proves who they are with one of their own API keys
 * (the one this tab is signed in with, or one they paste). A pasted key lives
 * in this component's state for one request only, is never logged, and is
 * never part of the URL (its input has no name).
 */
export function ProveItsYou({
  invitationToken,
  invitedEmail,
  keyName,
  onAccepted,
  done,
}: {
  invitationToken: string;
  invitedEmail: string | null;
  /** What the person already typed as the key's name before we knew they had an account. */
  keyName: string;
  onAccepted: (accepted: AcceptedInvitation) => void;
  /** Accepted: nothing more to send. */
  done: boolean;
}) {
  const signedInKey = useApiKey();
  const [chosen, setChosen] = useState<Proof>(() => (readApiKey() ? 'signed-in' : 'pasted'));
  // Signed out in another tab meanwhile: only pasting is left.
  const proof: Proof = signedInKey ? chosen : 'pasted';
  const [pastedKey, setPastedKey] = useState('');
  const [keyError, setKeyError] = useState<string | null>(null);
  const form = useZodForm(acceptInvitationInput.pick({ key_name: true }), { defaultValues: { key_name: keyName } });
  const heading = useRef<HTMLHeadingElement>(null);
  const keyInput = useRef<HTMLInputElement>(null);
  const ids = useId();
  const keyFieldId = `${ids}-api-key`;

  // The page changed under the person's hands: take them (and their screen reader) to the explanation.
  useEffect(() => heading.current?.focus(), []);

  function refuseKey(message: string) {
    setKeyError(message);
    keyInput.current?.focus();
  }

  return (
    <>
      <div className="mt-4 rounded-md border border-indigo-200 bg-indigo-50 px-4 py-3">
        <h2 ref={heading} tabIndex={-1} className="text-sm font-semibold text-indigo-950 focus:outline-none">
          You already have an account with <Unbroken>{`${invitedEmail ?? 'this email'}.`}</Unbroken>
        </h2>
        <p className="mt-1 text-sm text-indigo-950">
          Prove it’s you with one of your API keys. The invitation link alone cannot show who opened it. A key you paste is sent with this request
          only and is not kept.
        </p>
      </div>
      <Form
        form={form}
        className="mt-5"
        onSubmit={async (values) => {
          setKeyError(null);
          const apiKey = proof === 'signed-in' ? readApiKey() : pastedKey.trim();
          if (proof === 'pasted') {
            if (!apiKey) return refuseKey('Paste one of your API keys.');
            if (apiKey.startsWith('inv_'))
              return refuseKey('That is the invitation token. Paste one of your API keys: it starts with sk_test_ or sk_live_.');
            if (!API_KEY_SHAPE.test(apiKey)) return refuseKey('That does not look like an API key. Keys start with sk_test_ or sk_live_.');
          }
          if (!apiKey) throw new Error('This tab is no longer signed in. Paste one of your API keys.');
          try {
            const result = await createOneOffClient(apiKey).invitations.accept.mutate({
              invitation_token: invitationToken,
              ...(values.key_name ? { key_name: values.key_name } : {}),
            });
            onAccepted({ token: result.api_key.token, networkId: result.member.network_id, keyName: result.api_key.key_name });
          } catch (error) {
            const refused = refusal(problemOf(error), invitedEmail, proof);
            if (!refused) throw error;
            if (refused.onKey && proof === 'pasted') return refuseKey(refused.message);
            throw new Error(refused.message);
          } finally {
            // Not kept beyond the request, whatever the answer.
            setPastedKey('');
          }
        }}
      >
        {signedInKey ? (
          <fieldset>
            <legend className="text-sm font-medium text-slate-800">Which of your API keys?</legend>
            <div className="mt-2 space-y-2">
              <div className="flex items-start gap-3 rounded-md border border-slate-300 px-3 py-2.5 has-checked:border-indigo-600 has-checked:bg-indigo-50">
                <input
                  id={`${ids}-signed-in`}
                  type="radio"
                  name="proof"
                  value="signed-in"
                  checked={proof === 'signed-in'}
                  onChange={() => {
                    setChosen('signed-in');
                    setKeyError(null);
                  }}
                  aria-describedby={`${ids}-signed-in-start`}
                  className="mt-0.5 size-4 shrink-0 accent-indigo-600"
                />
                <div className="min-w-0">
                  <Label htmlFor={`${ids}-signed-in`} className="block">
                    The key this tab is signed in with
                  </Label>
                  <p id={`${ids}-signed-in-start`} className="mt-0.5 font-mono text-xs break-all text-slate-600">
                    {signedInKey.slice(0, KEY_START_LENGTH)}…
                  </p>
                </div>
              </div>
              <div className="rounded-md border border-slate-300 px-3 py-2.5 has-checked:border-indigo-600 has-checked:bg-indigo-50">
                <div className="flex items-start gap-3">
                  <input
                    id={`${ids}-pasted`}
                    type="radio"
                    name="proof"
                    value="pasted"
                    checked={proof === 'pasted'}
                    onChange={() => setChosen('pasted')}
                    className="mt-0.5 size-4 shrink-0 accent-indigo-600"
                  />
                  <Label htmlFor={`${ids}-pasted`}>Paste another key</Label>
                </div>
                {proof === 'pasted' && (
                  <ApiKeyField id={keyFieldId} inputRef={keyInput} value={pastedKey} onChange={setPastedKey} error={keyError} className="mt-3 pl-7" />
                )}
              </div>
            </div>
          </fieldset>
        ) : (
          <ApiKeyField id={keyFieldId} inputRef={keyInput} value={pastedKey} onChange={setPastedKey} error={keyError} />
        )}
        <FormField form={form} name="key_name" label="Name of your new key" description="Optional; for example the computer you use.">
          {(field) => <Input autoComplete="off" placeholder="first key" {...field} />}
        </FormField>
        <FormError form={form} />
        <Button type="submit" className="w-full" loading={form.formState.isSubmitting} disabled={done}>
          {proof === 'signed-in' ? 'Accept with the signed-in key' : 'Accept with this key'}
        </Button>
      </Form>
      <p className="mt-4 text-xs text-slate-600">
        Not <Unbroken>{`${invitedEmail ?? 'you'}?`}</Unbroken> Then this invitation is not for you: ask the administrator who sent it for one with
        your own email.
      </p>
    </>
  );
}

/** An email moves to the next line whole rather than splitting at its hyphens (it still breaks when longer than a line). */
function Unbroken({ children }: { children: string }) {
  return <span className="inline-block max-w-full break-all">{children}</span>;
}

function ApiKeyField({
  id,
  inputRef,
  value,
  onChange,
  error,
  className,
}: {
  id: string;
  inputRef: Ref<HTMLInputElement>;
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  className?: string;
}) {
  return (
    <FieldShell
      id={id}
      label="Your API key"
      description="Starts with sk_test_ or sk_live_. Any active key you received on accepting an invitation or made yourself works, whichever network it is for."
      error={error ?? undefined}
      className={className}
    >
      <Input
        ref={inputRef}
        id={id}
        type="password"
        autoComplete="off"
        spellCheck={false}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder="sk_test_…"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error ${id}-description` : `${id}-description`}
      />
    </FieldShell>
  );
}
