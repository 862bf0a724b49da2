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

/**
 * The form inside CreateNetworkDialog. A module of its own because it brings zod and
 * react-hook-form (~290 KB of script): the dialog loads it when it opens, so the shell of every
 * network page does not (docs/PERFORMANCE.md, "Console (Lighthouse)"). It unmounts when the
 * dialog closes, which resets it.
 */
export function CreateNetworkForm({ onDone }: { onDone: () => void }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const form = useZodForm(createNetworkInput, { defaultValues: { name: '' } });
  const create = useMutation(trpc.networks.create.mutationOptions());
  return (
    <DialogForm
      form={form}
      submitLabel="Create network"
      onCancel={onDone}
      onSubmit={async (values) => {
        const network = await create.mutateAsync(values);
        await queryClient.invalidateQueries({ queryKey: trpc.networks.pathKey() });
        toast.success(`Network “${network.name}” created`);
        onDone();
        router.push(networkPath(network.id));
      }}
    >
      <FormField form={form} name="name" label="Name">
        {(field) => <Input autoComplete="off" placeholder="Acme Podcast Network" {...field} />}
      </FormField>
    </DialogForm>
  );
}
