'use client';

import { FlaskConical, Plus } from 'lucide-react';
import dynamic from 'next/dynamic';
import { useState } from 'react';
import { cn } from '@/app/(console)/_lib/cn';
import { Button } from '@/app/(console)/_components/ui/button';
import { Dialog, DialogContent, DialogTrigger } from '@/app/(console)/_components/ui/dialog';
import { LoadingBlock } from '@/app/(console)/_components/ui/skeleton';
import { TEST_MODE_MEANING } from '@/app/(console)/_components/test-mode';

const loadForm = () => import('./create-network-form');
/** Loaded when the dialog opens (or the pointer or focus reaches its button), not with the page. */
const CreateNetworkForm = dynamic(() => loadForm().then((m) => m.CreateNetworkForm), {
  ssr: false,
  loading: () => <LoadingBlock lines={2} />,
});

const SANDBOX_DESCRIPTION = `A test network with sample advertisers, campaigns, podcasts and offers, to try the console and the API on. ${TEST_MODE_MEANING}`;

/**
 * super_user only: create a network and switch to it. `sandbox`: "Create sandbox with sample data",
 * a test network filled with samples; `wide` shows that whole name on the button (the side bar's
 * button shows "Create sandbox", the rest for screen readers).
 */
export function CreateNetworkDialog({
  triggerClassName,
  sandbox = false,
  wide = false,
}: {
  triggerClassName?: string;
  sandbox?: boolean;
  wide?: boolean;
}) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="secondary" size="sm" className={triggerClassName} onPointerEnter={loadForm} onFocus={loadForm}>
          {sandbox ? (
            <>
              <FlaskConical aria-hidden /> Create sandbox<span className={cn(!wide && 'sr-only')}> with sample data</span>
            </>
          ) : (
            <>
              <Plus aria-hidden /> Create network
            </>
          )}
        </Button>
      </DialogTrigger>
      {sandbox ? (
        <DialogContent title="Create sandbox with sample data" description={SANDBOX_DESCRIPTION}>
          <CreateNetworkForm sandbox onDone={() => setOpen(false)} />
        </DialogContent>
      ) : (
        <DialogContent title="Create network" description="A network groups its members, advertisers, podcasts and webhooks.">
          <CreateNetworkForm onDone={() => setOpen(false)} />
        </DialogContent>
      )}
    </Dialog>
  );
}
