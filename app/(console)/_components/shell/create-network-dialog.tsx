'use client';

import { Plus } from 'lucide-react';
import dynamic from 'next/dynamic';
import { useState } from 'react';
import { Button } from '@/app/(console)/_components/ui/button';
import { Dialog, DialogContent, DialogTrigger } from '@/app/(console)/_components/ui/dialog';
import { LoadingBlock } from '@/app/(console)/_components/ui/skeleton';

const loadForm = () => import('./create-network-form');
/** Loaded when the dialog opens (or the pointer or focus reaches its button), not with the page. */
const CreateNetworkForm = dynamic(() => loadForm().then((m) => m.CreateNetworkForm), {
  ssr: false,
  loading: () => <LoadingBlock lines={2} />,
});

/** super_user only: create a network and switch to it. */
export function CreateNetworkDialog({ triggerClassName }: { triggerClassName?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="secondary" size="sm" className={triggerClassName} onPointerEnter={loadForm} onFocus={loadForm}>
          <Plus aria-hidden /> Create network
        </Button>
      </DialogTrigger>
      <DialogContent title="Create network" description="A network groups its members, advertisers, podcasts and webhooks.">
        <CreateNetworkForm onDone={() => setOpen(false)} />
      </DialogContent>
    </Dialog>
  );
}
