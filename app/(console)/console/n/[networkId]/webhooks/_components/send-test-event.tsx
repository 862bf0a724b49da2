'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Send } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/app/(console)/_components/ui/button';
import { Dialog, DialogContent, DialogFooter } from '@/app/(console)/_components/ui/dialog';
import { Label } from '@/app/(console)/_components/ui/label';
import { Select } from '@/app/(console)/_components/ui/select';
import { toast } from '@/app/(console)/_components/ui/toaster';
import { problemSentence } from '@/app/(console)/_lib/problem';
import { useTRPC, type RouterInputs } from '@/app/(console)/_lib/trpc';
import { useEventTypes } from './event-types-field';

type EventType = RouterInputs['webhooks']['sendTest']['event_type'];

/**
 * "Send test event": the example envelope of a chosen type, sent through the normal delivery
 * path (it shows in the delivery log, marked test). Works while the webhook is disabled.
 */
export function SendTestEventButton({ networkId, webhook }: { networkId: string; webhook: { id: string; events: string[] } }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const types = useEventTypes();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [eventType, setEventType] = useState<string>('');
  const [error, setError] = useState<string | null>(null);
  const send = useMutation(trpc.webhooks.sendTest.mutationOptions());
  const chosen = eventType || webhook.events[0] || types.data?.items[0]?.type || '';

  return (
    <>
      <Button
        variant="secondary"
        onClick={() => {
          setError(null);
          setOpen(true);
        }}
      >
        <Send aria-hidden /> Send test event
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        {open && (
          <DialogContent
            title="Send a test event"
            description={
              'Sends the example envelope of the type you choose, signed like every delivery. It carries "test": true and the header X-Service-Test: true, and is not in the event log. Works while the webhook is disabled.'
            }
          >
            <form
              className="space-y-4"
              onSubmit={async (event) => {
                event.preventDefault();
                setError(null);
                try {
                  const delivery = await send.mutateAsync({ networkId, webhookId: webhook.id, event_type: chosen as EventType });
                  await queryClient.invalidateQueries({ queryKey: trpc.webhooks.listDeliveries.pathKey() });
                  toast.success(`Test event sent: delivery ${delivery.id.slice(0, 8)}…`);
                  setOpen(false);
                } catch (caught) {
                  setError(problemSentence(caught, 'send the test event'));
                }
              }}
            >
              <div className="space-y-1.5">
                <Label htmlFor={`${id}-type`}>Event type</Label>
                <Select
                  id={`${id}-type`}
                  value={chosen}
                  onChange={(e) => setEventType(e.target.value)}
                  options={(types.data?.items ?? []).map((t) => ({ value: t.type, label: t.type }))}
                  aria-describedby={`${id}-description`}
                />
                <p id={`${id}-description`} className="text-xs text-slate-600">
                  {types.data?.items.find((t) => t.type === chosen)?.description}
                </p>
              </div>
              {error && (
                <p role="alert" className="text-sm text-red-800">
                  {error}
                </p>
              )}
              <DialogFooter>
                <Button variant="secondary" onClick={() => setOpen(false)}>
                  Cancel
                </Button>
                <Button type="submit" loading={send.isPending} disabled={!chosen}>
                  Send test event
                </Button>
              </DialogFooter>
            </form>
          </DialogContent>
        )}
      </Dialog>
    </>
  );
}
