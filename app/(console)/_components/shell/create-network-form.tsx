'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { createNetworkInput } from '@/server/routers/networks/create-network.types';
import { networkPath } from '@/app/(console)/_lib/network';
import { useTRPC } from '@/app/(console)/_lib/trpc';
import { DialogForm } from '@/app/(console)/_components/form-dialog';
import { FormField, useZodForm } from '@/app/(console)/_components/ui/form';
import { Input } from '@/app/(console)/_components/ui/input';
import { toast } from '@/app/(console)/_components/ui/toaster';

/** The fields the form has: the mode and the samples are the button's choice, not the form's. */
const nameOnly = createNetworkInput.pick({ name: true });

/**
 * The form inside CreateNetworkDialog. A module of its own because it brings zod and
 * react-hook-form (~290 KB of script): the dialog loads it when it opens, so the shell of every
 * network page does not (docs/PERFORMANCE.md, "Console (Lighthouse)"). It unmounts when the
 * dialog closes, which resets it.
 *
 * "Create network" sends no mode: the network gets the service's (APP_ENV), the one mode every key
 * may create, so the form never offers a choice the API would refuse (live under APP_ENV=test, or
 * with a test key). `sandbox` asks for a test network with sample data, in one transaction.
 */
export function CreateNetworkForm({ onDone, sandbox = false }: { onDone: () => void; sandbox?: boolean }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const form = useZodForm(nameOnly, { defaultValues: { name: sandbox ? 'Sandbox' : '' } });
  const create = useMutation(trpc.networks.create.mutationOptions());
  return (
    <DialogForm
      form={form}
      submitLabel={sandbox ? 'Create sandbox' : 'Create network'}
      onCancel={onDone}
      onSubmit={async (values) => {
        const network = await create.mutateAsync(sandbox ? { ...values, mode: 'test', sample_data: true } : values);
        await queryClient.invalidateQueries({ queryKey: trpc.networks.pathKey() });
        toast.success(sandbox ? `Sandbox “${network.name}” created with sample data` : `Network “${network.name}” created`);
        onDone();
        router.push(networkPath(network.id));
      }}
    >
      <FormField form={form} name="name" label="Name">
        {(field) => <Input autoComplete="off" placeholder={sandbox ? 'Sandbox' : 'Acme Podcast Network'} {...field} />}
      </FormField>
      {sandbox && (
        <p role="status" className="text-sm text-slate-600">
          {form.formState.isSubmitting
            ? 'Creating the sandbox and its sample advertisers, campaigns, podcasts and offers…'
            : 'The network and its samples are made together, in a few seconds. You can rename it later in its settings.'}
        </p>
      )}
    </DialogForm>
  );
}
