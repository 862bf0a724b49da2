'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { UserPlus } from 'lucide-react';
import { useState } from 'react';
import { createInvitationInput } from '@/server/routers/invitations/create-invitation.types';
import { TriggeredFormDialog } from '@/app/(console)/_components/form-dialog';
import { SecretDialog } from '@/app/(console)/_components/secret-dialog';
import { Button } from '@/app/(console)/_components/ui/button';
import { FormField, useZodForm } from '@/app/(console)/_components/ui/form';
import { Input } from '@/app/(console)/_components/ui/input';
import { Select } from '@/app/(console)/_components/ui/select';
import { toast } from '@/app/(console)/_components/ui/toaster';
import { useTRPC } from '@/app/(console)/_lib/trpc';
import { ROLE_HELP, ROLE_OPTIONS } from '@/app/(console)/console/n/[networkId]/api-keys/_components/identity';
import { formatDateTime } from '@/app/(console)/_lib/dates';

const inviteForm = createInvitationInput.omit({ networkId: true });

/** The link the invitee opens: the token rides in the fragment, which browsers never send to servers. */
export function invitationLink(token: string): string {
  return `${window.location.origin}/console/invitations/accept#token=${encodeURIComponent(token)}`;
}

export function InviteDialog({ networkId }: { networkId: string }) {
  const trpc = useTRPC();
  const [invited, setInvited] = useState<{ link: string; email: string; role: string; expiresAt: string } | null>(null);
  const queryClient = useQueryClient();
  const create = useMutation(
    trpc.invitations.create.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.invitations.pathKey() }) }),
  );
  const form = useZodForm(inviteForm, { defaultValues: { email: '', role: 'read_only', expires_in_days: 7 } });
  return (
    <>
      <TriggeredFormDialog
        trigger={
          <Button>
            <UserPlus aria-hidden /> Invite member
          </Button>
        }
        title="Invite a member"
        description="We email the person a link. When they open it, they join with this role and receive their first API key."
        form={form}
        submitLabel="Create invitation"
        onSubmit={async (values) => {
          const created = await create.mutateAsync({ ...values, networkId });
          // Test mode answers with the token too (for sandboxes); live mode sends it only to the invitee's mailbox.
          if (created.token)
            setInvited({ link: invitationLink(created.token), email: created.email, role: created.role, expiresAt: created.expires_at });
          else toast.success(`Invitation emailed to ${created.email}`);
        }}
      >
        <FormField form={form} name="email" label="Email">
          {(field) => <Input type="email" autoComplete="off" placeholder="name@example.com" {...field} />}
        </FormField>
        <FormField form={form} name="role" label="Role" description={ROLE_HELP}>
          {(field) => <Select options={ROLE_OPTIONS} {...field} />}
        </FormField>
        <FormField form={form} name="expires_in_days" label="Valid for (days)" description="1 to 30 days." registerOptions={{ valueAsNumber: true }}>
          {(field) => <Input type="number" min={1} max={30} inputMode="numeric" {...field} />}
        </FormField>
      </TriggeredFormDialog>
      <SecretDialog
        secret={invited?.link ?? null}
        title="Invitation sent"
        label="Invitation link"
        description={invited ? `For ${invited.email}. The link works once, until ${formatDateTime(invited.expiresAt)}.` : undefined}
        note="We emailed this link to the invitee. It is shown here because the service runs in test mode (in live mode only their mailbox gets it). Whoever opens it joins the network: share it only with them."
        onClose={() => setInvited(null)}
      />
    </>
  );
}
