'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { createNetworkInput } from '@/server/routers/networks/create-network.types';
import { networkPath } from '@/app/(console)/_lib/network';
import { useTRPC } from '@/app/(console)/_lib/trpc';
import { Button } from '@/app/(console)/_components/ui/button';
import { Dialog, DialogContent, DialogFooter, DialogTrigger } from '@/app/(console)/_components/ui/dialog';
import { Form, FormError, FormField, useZodForm } from '@/app/(console)/_components/ui/form';
import { Input } from '@/app/(console)/_components/ui/input';
import { toast } from '@/app/(console)/_components/ui/toaster';

/** super_user only: create a network and switch to it. */
export function CreateNetworkDialog({ triggerClassName }: { triggerClassName?: string }) {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const router = useRouter();
  const queryClient = useQueryClient();
  const form = useZodForm(createNetworkInput, { defaultValues: { name: '' } });
  const create = useMutation(trpc.networks.create.mutationOptions());

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) form.reset();
      }}
    >
      <DialogTrigger asChild>
        <Button variant="secondary" size="sm" className={triggerClassName}>
          <Plus aria-hidden /> Create network
        </Button>
      </DialogTrigger>
      <DialogContent title="Create network" description="A network groups its members, advertisers, podcasts and webhooks.">
        <Form
          form={form}
          onSubmit={async (values) => {
            const network = await create.mutateAsync(values);
            await queryClient.invalidateQueries({ queryKey: trpc.networks.pathKey() });
            toast.success(`Network “${network.name}” created`);
            setOpen(false);
            form.reset();
            router.push(networkPath(network.id));
          }}
        >
          <FormField form={form} name="name" label="Name">
            {(field) => <Input autoComplete="off" placeholder="Acme Podcast Network" {...field} />}
          </FormField>
          <FormError form={form} />
          <DialogFooter>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" loading={form.formState.isSubmitting}>
              Create network
            </Button>
          </DialogFooter>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
