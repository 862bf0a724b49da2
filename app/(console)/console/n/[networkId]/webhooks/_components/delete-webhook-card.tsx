'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button } from '@/app/(console)/_components/ui/button';
import { Card, CardDescription, CardHeader, CardTitle } from '@/app/(console)/_components/ui/card';
import { ConfirmDialog } from '@/app/(console)/_components/ui/confirm-dialog';
import { toast } from '@/app/(console)/_components/ui/toaster';
import { networkPath } from '@/app/(console)/_lib/network';
import { problemSentence } from '@/app/(console)/_lib/problem';
import { useTRPC, type RouterOutputs } from '@/app/(console)/_lib/trpc';

type Webhook = RouterOutputs['webhooks']['get'];

/** Deleting a webhook, at the foot of its page and away from Edit: an outlined button, confirmed in a dialog. */
export function DeleteWebhookCard({ networkId, webhook: w }: { networkId: string; webhook: Webhook }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const remove = useMutation(trpc.webhooks.remove.mutationOptions());
  return (
    <Card className="border-red-200" aria-labelledby="delete-webhook-title">
      <CardHeader className="items-center border-b-0">
        <div>
          <CardTitle id="delete-webhook-title">Delete this webhook</CardTitle>
          <CardDescription>The endpoint receives nothing more and its delivery log is no longer shown. This cannot be undone.</CardDescription>
        </div>
        <ConfirmDialog
          trigger={
            <Button variant="secondary" className="border-red-300 text-red-700 hover:bg-red-50" onClick={() => setError(null)}>
              <Trash2 aria-hidden /> Delete
            </Button>
          }
          title="Delete this webhook?"
          description={`${w.url} will receive nothing more, and its delivery log will no longer be shown. This cannot be undone.`}
          confirmLabel="Delete webhook"
          error={error}
          onConfirm={async () => {
            try {
              await remove.mutateAsync({ networkId, webhookId: w.id });
              await queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.pathKey() });
              toast.success('Webhook deleted.');
              router.push(networkPath(networkId, 'webhooks'));
            } catch (e) {
              setError(problemSentence(e, 'delete the webhook'));
              throw e;
            }
          }}
        />
      </CardHeader>
    </Card>
  );
}
