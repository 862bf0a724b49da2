'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { z } from 'zod';
import { createServiceAccountInput } from '@/server/routers/service-accounts/create-service-account.types';
import { TriggeredFormDialog } from '@/app/(console)/_components/form-dialog';
import { SecretDialog } from '@/app/(console)/_components/secret-dialog';
import { Button } from '@/app/(console)/_components/ui/button';
import { FormField, useZodForm } from '@/app/(console)/_components/ui/form';
import { Input } from '@/app/(console)/_components/ui/input';
import { Select } from '@/app/(console)/_components/ui/select';
import { useTRPC } from '@/app/(console)/_lib/trpc';
import { localDateTimeToIso, ROLE_HELP, ROLE_OPTIONS } from '@/app/(console)/console/n/[networkId]/api-keys/_components/identity';
import { expiryDescription, useKeyLifetimeLimit } from '@/app/(console)/console/n/[networkId]/api-keys/_components/key-lifetime';

/** The procedure's schema; the expiry is the browser's local date-time, sent as ISO 8601. */
const createForm = createServiceAccountInput.omit({ networkId: true, expires_at: true }).extend({
  expires_at: z
    .string()
    .optional()
    .refine((value) => !value || new Date(value).getTime() > Date.now(), 'The expiry must be in the future.'),
});

export function CreateServiceAccountDialog({ networkId }: { networkId: string }) {
  const trpc = useTRPC();
  const [created, setCreated] = useState<{ token: string; name: string; keyName: string } | null>(null);
  const queryClient = useQueryClient();
  const lifetimeLimit = useKeyLifetimeLimit(networkId);
  const create = useMutation(
    trpc.serviceAccounts.create.mutationOptions({
      onSuccess: () =>
        Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.serviceAccounts.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.keys.pathKey() }),
        ]),
    }),
  );
  const form = useZodForm(createForm, { defaultValues: { name: '', role: 'read_only', key_name: '', expires_at: '' } });
  return (
    <>
      <TriggeredFormDialog
        trigger={
          <Button>
            <Plus aria-hidden /> Create service account
          </Button>
        }
        title="Create a service account"
        description="A non-human identity for a program or integration. It is created with its first API key, shown once."
        form={form}
        submitLabel="Create"
        onSubmit={async (values) => {
          const account = await create.mutateAsync({
            networkId,
            name: values.name,
            role: values.role,
            ...(values.key_name ? { key_name: values.key_name } : {}),
            ...(values.expires_at ? { expires_at: localDateTimeToIso(values.expires_at) } : {}),
          });
          setCreated({ token: account.api_key.token, name: account.name, keyName: account.api_key.key_name });
        }}
      >
        <FormField form={form} name="name" label="Name" description="What uses it, e.g. “Billing export”.">
          {(field) => <Input autoComplete="off" {...field} />}
        </FormField>
        <FormField form={form} name="role" label="Role" description={`The most its keys may hold. ${ROLE_HELP}`}>
          {(field) => <Select options={ROLE_OPTIONS} {...field} />}
        </FormField>
        <FormField form={form} name="key_name" label="First key name (optional)" description="Default “default”.">
          {(field) => <Input autoComplete="off" placeholder="default" {...field} />}
        </FormField>
        <FormField form={form} name="expires_at" label="First key expires (optional)" description={expiryDescription(lifetimeLimit)}>
          {(field) => <Input type="datetime-local" {...field} />}
        </FormField>
      </TriggeredFormDialog>
      <SecretDialog
        secret={created?.token ?? null}
        title="Service account created"
        label="API key"
        description={created ? `The first key (“${created.keyName}”) of ${created.name}.` : undefined}
        note="Put it in the program’s secret store. You can mint more keys for this account at any time."
        onClose={() => setCreated(null)}
      />
    </>
  );
}
