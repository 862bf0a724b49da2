'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter, useSearchParams } from 'next/navigation';
import { useEffect, useState } from 'react';
import { acceptInvitationInput } from '@/server/routers/invitations/accept-invitation.types';
import { INVITATION_TOKEN_PATTERN } from '@/server/services/invitations/invitation-status';
import { SecretDialog } from '@/app/(console)/_components/secret-dialog';
import { ConsoleBrand } from '@/app/(console)/_components/shell/console-brand';
import { Button } from '@/app/(console)/_components/ui/button';
import { Card, CardContent } from '@/app/(console)/_components/ui/card';
import { Form, FormError, FormField, useZodForm } from '@/app/(console)/_components/ui/form';
import { Input } from '@/app/(console)/_components/ui/input';
import { formatDateTime } from '@/app/(console)/_lib/dates';
import { networkPath } from '@/app/(console)/_lib/network';
import { problemOf } from '@/app/(console)/_lib/problem';
import { signIn } from '@/app/(console)/_lib/session';
import { createOneOffClient } from '@/app/(console)/_lib/trpc';
import { existingAccountEmail, ProveItsYou, type AcceptedInvitation } from './prove-its-you';

/** The invitation token from the link: the fragment (#token=…, never sent to servers) or ?token=…. */
function tokenFromLocation(search: URLSearchParams): string {
  const fromHash = new URLSearchParams(window.location.hash.slice(1)).get('token');
  return (fromHash ?? search.get('token') ?? '').trim();
}

const INVITATION_SHAPE = /^inv_[A-Za-z0-9]+$/;

export function AcceptInvitation() {
  const router = useRouter();
  const search = useSearchParams();
  const queryClient = useQueryClient();
  const [token, setToken] = useState('');
  const [tokenError, setTokenError] = useState<string | null>(null);
  const [accepted, setAccepted] = useState<AcceptedInvitation | null>(null);
  // Set when the token alone was refused because the invited email already has an account.
  const [existingAccount, setExistingAccount] = useState<{ email: string | null } | null>(null);
  const form = useZodForm(acceptInvitationInput.omit({ invitation_token: true }), { defaultValues: { name: '', key_name: '' } });

  // Read on arrival, and again when another link is opened in this tab (only the fragment changes).
  useEffect(() => {
    const read = () => setToken(tokenFromLocation(search));
    read();
    window.addEventListener('hashchange', read);
    return () => window.removeEventListener('hashchange', read);
  }, [search]);

  function welcome(result: AcceptedInvitation) {
    setAccepted(result);
    // The invitation is used up: drop it from the address bar.
    window.history.replaceState(null, '', window.location.pathname);
    setToken('');
  }

  return (
    <div className="w-full max-w-md">
      <ConsoleBrand />
      <Card>
        <CardContent className="px-6 py-6">
          <h1 className="text-xl font-semibold text-slate-900">Accept your invitation</h1>
          {/* Only a whole token is read: a half-typed one would count as a failed attempt. */}
          {INVITATION_TOKEN_PATTERN.test(token) && !accepted && <InvitationSummary token={token} />}
          <p className="mt-1 text-sm text-slate-600">
            {existingAccount
              ? 'You will join the network with the role you were invited with and receive a new API key for it. It is shown only once.'
              : 'You will join the network with the role you were invited with and receive your first API key. It is shown only once.'}
          </p>
          {existingAccount ? (
            <ProveItsYou
              invitationToken={token.trim()}
              invitedEmail={existingAccount.email}
              keyName={form.getValues('key_name') ?? ''}
              onAccepted={welcome}
              done={accepted !== null}
            />
          ) : (
            <Form
              form={form}
              className="mt-5"
              onSubmit={async (values) => {
                setTokenError(null);
                const invitation = token.trim();
                if (!INVITATION_SHAPE.test(invitation)) {
                  setTokenError('Paste the invitation token from your link (it starts with inv_).');
                  return;
                }
                try {
                  const result = await createOneOffClient(invitation).invitations.accept.mutate({
                    ...(values.name ? { name: values.name } : {}),
                    ...(values.key_name ? { key_name: values.key_name } : {}),
                  });
                  welcome({ token: result.api_key.token, networkId: result.member.network_id, keyName: result.api_key.key_name });
                } catch (error) {
                  const problem = problemOf(error);
                  // The only 403 here: the email has an account, and the token alone does not prove who is accepting.
                  if (problem.status === 403) return setExistingAccount({ email: existingAccountEmail(problem.detail) });
                  if (problem.status === 401) throw new Error('This invitation link is not valid. Check that you copied the whole link.');
                  if (problem.status === 409) throw new Error(`This invitation can no longer be used: ${problem.detail}`);
                  throw error;
                }
              }}
            >
              {!INVITATION_SHAPE.test(token) || tokenError ? (
                <div className="space-y-1.5">
                  <label htmlFor="invitation-token" className="text-sm font-medium text-slate-800">
                    Invitation token
                  </label>
                  <Input
                    id="invitation-token"
                    autoComplete="off"
                    spellCheck={false}
                    value={token}
                    onChange={(event) => setToken(event.target.value)}
                    placeholder="inv_…"
                    aria-invalid={tokenError ? true : undefined}
                    aria-describedby={tokenError ? 'invitation-token-error' : undefined}
                  />
                  {tokenError && (
                    <p id="invitation-token-error" className="text-xs font-medium text-red-700">
                      {tokenError}
                    </p>
                  )}
                </div>
              ) : (
                <p className="rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-700">Invitation token found in your link.</p>
              )}
              <FormField form={form} name="name" label="Your name" description="Shown to the network’s administrators. Optional.">
                {(field) => <Input autoComplete="name" {...field} />}
              </FormField>
              <FormField form={form} name="key_name" label="Name of your first key" description="Optional; for example the computer you use.">
                {(field) => <Input autoComplete="off" placeholder="first key" {...field} />}
              </FormField>
              <FormError form={form} />
              <Button type="submit" className="w-full" loading={form.formState.isSubmitting} disabled={accepted !== null}>
                Accept invitation
              </Button>
            </Form>
          )}
        </CardContent>
      </Card>
      <SecretDialog
        secret={accepted?.token ?? null}
        title="Welcome! Here is your API key"
        label="API key"
        description={accepted ? `Key “${accepted.keyName}”. Use it to sign in to the console and to call the API.` : undefined}
        note="When you close this dialog you are signed in to the console with this key."
        onClose={() => {
          if (!accepted) return;
          const { token: apiKey, networkId } = accepted;
          setAccepted(null);
          queryClient.clear();
          signIn(apiKey);
          router.replace(networkPath(networkId));
        }}
      />
    </div>
  );
}

/**
 * What the link invites to, read with its token (GET /v1/invitations/current): the network, the
 * role, who sent it, and whether it can still be accepted. Reading does not use the invitation up.
 */
function InvitationSummary({ token }: { token: string }) {
  const details = useQuery({
    queryKey: ['invitation-details', token],
    queryFn: () => createOneOffClient(token).invitations.current.query({}),
    retry: false,
    staleTime: Infinity,
  });
  if (details.isPending) {
    return (
      <p role="status" className="mt-3 text-sm text-slate-600">
        Reading your invitation…
      </p>
    );
  }
  if (details.error) {
    const problem = problemOf(details.error);
    return (
      <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
        {problem.status === 401
          ? 'This invitation link is not valid. Check that you copied the whole link.'
          : `Could not read the invitation: ${problem.detail}`}
      </p>
    );
  }
  const invitation = details.data;
  const role = invitation.role === 'administrator' ? 'an administrator' : 'a read-only member';
  if (invitation.status !== 'pending') {
    const why = { accepted: 'has already been accepted', revoked: 'was revoked', expired: `expired on ${formatDateTime(invitation.expires_at)}` }[
      invitation.status
    ];
    return (
      <p role="alert" className="mt-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="invitation-summary">
        This invitation to <strong>{invitation.network.name}</strong> {why}. Ask an administrator of the network for a new one.
      </p>
    );
  }
  return (
    <p className="mt-3 rounded-md bg-indigo-50 px-3 py-2 text-sm text-slate-800" data-testid="invitation-summary">
      {invitation.invited_by ?? 'An administrator'} invited <strong>{invitation.email}</strong> to join <strong>{invitation.network.name}</strong> as{' '}
      {role}. The invitation expires {formatDateTime(invitation.expires_at)}.
    </p>
  );
}
