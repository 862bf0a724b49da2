'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import { z } from 'zod';
import { createMemberKeyInput } from '@/server/routers/members/create-member-key.types';
import { TriggeredFormDialog } from '@/app/(console)/_components/form-dialog';
import { SecretDialog } from '@/app/(console)/_components/secret-dialog';
import { Button } from '@/app/(console)/_components/ui/button';
import { FormField, useZodForm } from '@/app/(console)/_components/ui/form';
import { Input } from '@/app/(console)/_components/ui/input';
import { Select } from '@/app/(console)/_components/ui/select';
import { useTRPC } from '@/app/(console)/_lib/trpc';
import { localDateTimeToIso, roleLabel, useIdentityDirectory, type Role } from './identity';
import { expiryDescription, useKeyLifetimeLimit } from './key-lifetime';

/** The owner of a new key: a member (by membership id) or a service account. */
export interface KeyOwnerChoice {
  type: 'member' | 'service_account';
  id: string;
  name: string;
  role: Role;
}

/*
 * The procedures' own fields (key_name, role) plus the owner picker, and the
 * expiry as the browser's local date-time (sent as ISO 8601).
 */
const mintKeyForm = createMemberKeyInput.omit({ networkId: true, memberId: true, expires_at: true }).extend({
  owner: z.string().min(1, 'Choose who the key is for.'),
  expires_at: z
    .string()
    .optional()
    .refine((value) => !value || new Date(value).getTime() > Date.now(), 'The expiry must be in the future.'),
});

const ownerValue = (o: Pick<KeyOwnerChoice, 'type' | 'id'>) => `${o.type}:${o.id}`;

/**
 * "Mint key" button → a form (name, owner, role, optional expiry) → the token
 * once. With `owner`, the key is for that owner (service accounts page).
 */
export function MintKeyDialog({
  networkId,
  owner: fixedOwner,
  triggerLabel = 'Mint key',
  triggerVariant = 'primary',
  triggerSize = 'md',
  triggerAriaLabel,
}: {
  networkId: string;
  owner?: KeyOwnerChoice;
  triggerLabel?: string;
  triggerVariant?: 'primary' | 'secondary' | 'ghost';
  triggerSize?: 'sm' | 'md';
  triggerAriaLabel?: string;
}) {
  const trpc = useTRPC();
  const [minted, setMinted] = useState<{ token: string; keyName: string; ownerName: string; start: string } | null>(null);
  const queryClient = useQueryClient();
  const directory = useIdentityDirectory(networkId);
  const lifetimeLimit = useKeyLifetimeLimit(networkId);
  const owners: KeyOwnerChoice[] = fixedOwner
    ? [fixedOwner]
    : [
        ...(directory.members.data?.items ?? []).map((m) => ({
          type: 'member' as const,
          id: m.id,
          name: m.user.email ? `${m.user.name} (${m.user.email})` : m.user.name,
          role: m.role,
        })),
        ...(directory.accounts.data?.items ?? []).map((a) => ({ type: 'service_account' as const, id: a.id, name: a.name, role: a.role })),
      ];

  const form = useZodForm(mintKeyForm, {
    defaultValues: { key_name: '', owner: fixedOwner ? ownerValue(fixedOwner) : '', role: undefined, expires_at: '' },
  });
  const chosen = owners.find((o) => ownerValue(o) === form.watch('owner'));
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.keys.pathKey() });
  const forMember = useMutation(trpc.members.createKey.mutationOptions({ onSuccess: invalidate }));
  const forAccount = useMutation(trpc.serviceAccounts.createKey.mutationOptions({ onSuccess: invalidate }));

  return (
    <>
      <TriggeredFormDialog
        trigger={
          <Button variant={triggerVariant} size={triggerSize} aria-label={triggerAriaLabel}>
            <KeyRound aria-hidden /> {triggerLabel}
          </Button>
        }
        title={fixedOwner ? `Mint a key for ${fixedOwner.name}` : 'Mint an API key'}
        description="The key works on this network only. Its token is shown once, right after minting."
        form={form}
        submitLabel="Mint key"
        onSubmit={async (values) => {
          const owner = owners.find((o) => ownerValue(o) === values.owner);
          if (!owner) throw new Error('Choose who the key is for.');
          const fields = {
            networkId,
            key_name: values.key_name,
            ...(values.role ? { role: values.role } : {}),
            ...(values.expires_at ? { expires_at: localDateTimeToIso(values.expires_at) } : {}),
          };
          const created =
            owner.type === 'member'
              ? await forMember.mutateAsync({ ...fields, memberId: owner.id })
              : await forAccount.mutateAsync({ ...fields, serviceAccountId: owner.id });
          setMinted({ token: created.token, keyName: created.key_name, ownerName: owner.name, start: created.start });
        }}
      >
        <FormField form={form} name="key_name" label="Key name" description="To recognise it later, e.g. “billing export” or “Alice’s laptop”.">
          {(field) => <Input autoComplete="off" {...field} />}
        </FormField>
        {!fixedOwner && (
          <FormField form={form} name="owner" label="Owner" description="A member (the key acts as that person) or a service account (for programs).">
            {(field) => (
              <Select {...field} placeholder={owners.length ? 'Choose a member or service account' : 'Loading…'}>
                <optgroup label="Members">
                  {owners
                    .filter((o) => o.type === 'member')
                    .map((o) => (
                      <option key={o.id} value={ownerValue(o)}>
                        {o.name} — {roleLabel(o.role)}
                      </option>
                    ))}
                </optgroup>
                <optgroup label="Service accounts">
                  {owners
                    .filter((o) => o.type === 'service_account')
                    .map((o) => (
                      <option key={o.id} value={ownerValue(o)}>
                        {o.name} — {roleLabel(o.role)}
                      </option>
                    ))}
                </optgroup>
              </Select>
            )}
          </FormField>
        )}
        <FormField
          form={form}
          name="role"
          label="Role"
          description={
            chosen
              ? `At most the owner’s role (${roleLabel(chosen.role).toLowerCase()}). A person’s key also follows their membership: demote them and the key reads only.`
              : 'At most the owner’s role.'
          }
        >
          {(field) => (
            <Select {...field} placeholder={chosen ? `Same as the owner (${roleLabel(chosen.role)})` : 'Same as the owner'}>
              <option value="read_only">Read only</option>
              <option value="administrator" disabled={chosen?.role === 'read_only'}>
                Administrator{chosen?.role === 'read_only' ? ' (above the owner’s role)' : ''}
              </option>
            </Select>
          )}
        </FormField>
        <FormField form={form} name="expires_at" label="Expires (optional)" description={expiryDescription(lifetimeLimit)}>
          {(field) => <Input type="datetime-local" {...field} />}
        </FormField>
      </TriggeredFormDialog>
      <SecretDialog
        secret={minted?.token ?? null}
        title="API key minted"
        label="API key"
        description={minted ? `Key “${minted.keyName}” for ${minted.ownerName}. It will be listed by its start, ${minted.start}.` : undefined}
        note="Give it to its owner over a safe channel. Anyone holding it acts with its role on this network."
        onClose={() => setMinted(null)}
      />
    </>
  );
}
