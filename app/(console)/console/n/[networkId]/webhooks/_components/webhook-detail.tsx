'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, KeyRound, Pause, Pencil, Play, RotateCw } from 'lucide-react';
import { IntentLink } from '@/app/(console)/_components/ui/intent-link';
import { useParams } from 'next/navigation';
import { useState } from 'react';
import { updateWebhookInput } from '@/server/routers/webhooks/update-webhook.types';
import { DialogForm } from '@/app/(console)/_components/form-dialog';
import { SecretDialog } from '@/app/(console)/_components/secret-dialog';
import { Badge, StatusBadge } from '@/app/(console)/_components/ui/badge';
import { Button } from '@/app/(console)/_components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/app/(console)/_components/ui/card';
import { ConfirmDialog } from '@/app/(console)/_components/ui/confirm-dialog';
import { Dialog, DialogContent } from '@/app/(console)/_components/ui/dialog';
import { FormField, useZodForm } from '@/app/(console)/_components/ui/form';
import { Input, Textarea } from '@/app/(console)/_components/ui/input';
import { LoadingBlock } from '@/app/(console)/_components/ui/skeleton';
import { ErrorState, PageHeader } from '@/app/(console)/_components/ui/states';
import { toast } from '@/app/(console)/_components/ui/toaster';
import { networkPath, useNetworkId, useNetworkRole } from '@/app/(console)/_lib/network';
import { problemOf, problemSentence } from '@/app/(console)/_lib/problem';
import { useTRPC, type RouterOutputs } from '@/app/(console)/_lib/trpc';
import { WebhooksAdminOnly } from './admin-only';
import { DeleteWebhookCard } from './delete-webhook-card';
import { DeliveryLog } from './delivery-log';
import { EventTypesField } from './event-types-field';
import { SendTestEventButton } from './send-test-event';
import { CONFLICT_SENTENCE, isVersionConflict } from './format';
import { formatDateTime } from '@/app/(console)/_lib/dates';

type Webhook = RouterOutputs['webhooks']['get'];

export function WebhookDetail() {
  const networkId = useNetworkId();
  const role = useNetworkRole(networkId);
  const params = useParams<{ webhookId: string }>();
  const webhookId = decodeURIComponent(params.webhookId);
  const back = (
    <IntentLink
      href={networkPath(networkId, 'webhooks')}
      className="mb-3 inline-flex items-center gap-1 rounded text-sm text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
    >
      <ArrowLeft className="size-4" aria-hidden /> All webhooks
    </IntentLink>
  );
  if (role === 'read_only') {
    return (
      <>
        {back}
        <PageHeader title="Webhook" />
        <WebhooksAdminOnly />
      </>
    );
  }
  return (
    <>
      {back}
      {role === 'administrator' ? <WebhookView networkId={networkId} webhookId={webhookId} /> : <LoadingBlock />}
    </>
  );
}

function WebhookView({ networkId, webhookId }: { networkId: string; webhookId: string }) {
  const trpc = useTRPC();
  const hook = useQuery(trpc.webhooks.get.queryOptions({ networkId, webhookId }));
  if (hook.error) {
    return (
      <>
        <PageHeader title="Webhook" />
        <ErrorState error={hook.error} onRetry={() => hook.refetch()} />
      </>
    );
  }
  if (!hook.data) {
    return (
      <>
        <PageHeader title="Webhook" />
        <LoadingBlock />
      </>
    );
  }
  const w = hook.data;
  return (
    <>
      <PageHeader
        title="Webhook"
        description={<span className="font-mono break-all text-slate-700">{w.url}</span>}
        actions={<WebhookActions webhook={w} networkId={networkId} />}
      />
      <div className="min-w-0 space-y-6">
        <WebhookSummary webhook={w} />
        <DeliveryLog networkId={networkId} webhook={w} />
        <DeleteWebhookCard networkId={networkId} webhook={w} />
      </div>
    </>
  );
}

function WebhookSummary({ webhook: w }: { webhook: Webhook }) {
  return (
    <Card>
      <CardHeader>
        <div>
          <CardTitle>Subscription</CardTitle>
          <CardDescription>What this endpoint receives.</CardDescription>
        </div>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-x-8 gap-y-4 text-sm sm:grid-cols-2">
          <div>
            <dt className="font-medium text-slate-600">Status</dt>
            <dd className="mt-1">
              <StatusBadge status={w.status} />
              <p className="mt-1 text-xs text-slate-600">
                {w.status === 'active'
                  ? 'Events are delivered as they happen.'
                  : 'Paused: nothing is sent. Deliveries waiting for a retry resume when you enable it; events that happen meanwhile are not queued.'}
              </p>
              {w.disabled_reason && (
                <p className="mt-1 rounded-md bg-amber-50 px-2 py-1 text-xs text-amber-900">Disabled automatically: {w.disabled_reason}</p>
              )}
            </dd>
          </div>
          <div>
            <dt className="font-medium text-slate-600">Events</dt>
            <dd className="mt-1 flex flex-wrap gap-1">
              {w.events.map((type) => (
                <Badge key={type} className="font-mono">
                  {type}
                </Badge>
              ))}
            </dd>
          </div>
          <div>
            <dt className="font-medium text-slate-600">Description</dt>
            <dd className="mt-1 text-slate-800">{w.description ?? <span className="text-slate-500">None</span>}</dd>
          </div>
          <div>
            <dt className="font-medium text-slate-600">Signing secret</dt>
            <dd className="mt-1 text-slate-800">
              {w.secret_rotation_ends_at
                ? `Rotated: until ${formatDateTime(w.secret_rotation_ends_at)} every delivery is signed with both the new and the previous secret.`
                : 'Shown once at creation or rotation; never again.'}
            </dd>
          </div>
          <div>
            <dt className="font-medium text-slate-600">Created</dt>
            <dd className="mt-1 text-slate-800">{formatDateTime(w.created_at)}</dd>
          </div>
          <div>
            <dt className="font-medium text-slate-600">Id · version</dt>
            <dd className="mt-1 font-mono text-xs text-slate-800">
              {w.id} · v{w.version}
            </dd>
          </div>
        </dl>
      </CardContent>
    </Card>
  );
}

function WebhookActions({ webhook: w, networkId }: { webhook: Webhook; networkId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [toggleError, setToggleError] = useState<string | null>(null);
  const [rotateError, setRotateError] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() });
  const update = useMutation(trpc.webhooks.update.mutationOptions({ onSuccess: refresh }));
  const rotate = useMutation(trpc.webhooks.rotateSecret.mutationOptions({ onSuccess: refresh }));
  const enabling = w.status === 'disabled';

  return (
    <>
      <SendTestEventButton networkId={networkId} webhook={w} />
      <Button variant="secondary" onClick={() => setEditing(true)}>
        <Pencil aria-hidden /> Edit
      </Button>
      <ConfirmDialog
        trigger={
          <Button variant="secondary" onClick={() => setToggleError(null)}>
            {enabling ? <Play aria-hidden /> : <Pause aria-hidden />} {enabling ? 'Enable' : 'Disable'}
          </Button>
        }
        title={enabling ? 'Enable this webhook?' : 'Disable this webhook?'}
        description={
          enabling
            ? 'Deliveries resume: new events are sent again, and deliveries that were paused while it was disabled are sent now (same id, same body).'
            : 'Deliveries pause while it is disabled: nothing is sent to this endpoint, and events that happen meanwhile are not queued for it. Deliveries already waiting for a retry stay pending and resume when you enable it again.'
        }
        confirmLabel={enabling ? 'Enable webhook' : 'Disable webhook'}
        destructive={!enabling}
        error={toggleError}
        onConfirm={async () => {
          try {
            await update.mutateAsync({ networkId, webhookId: w.id, status: enabling ? 'active' : 'disabled', version: w.version });
            toast.success(enabling ? 'Webhook enabled: deliveries resume.' : 'Webhook disabled: deliveries are paused.');
          } catch (error) {
            setToggleError(
              isVersionConflict(problemOf(error))
                ? CONFLICT_SENTENCE
                : problemSentence(error, enabling ? 'enable the webhook' : 'disable the webhook'),
            );
            if (isVersionConflict(problemOf(error))) void refresh();
            throw error;
          }
        }}
      />
      <ConfirmDialog
        trigger={
          <Button variant="secondary" onClick={() => setRotateError(null)}>
            <KeyRound aria-hidden /> Rotate secret
          </Button>
        }
        title="Rotate the signing secret?"
        description="A new secret is created and shown once. For the next 24 hours every delivery carries two signatures in X-Service-Signature — the new one first, then the previous one — so your endpoint keeps verifying while you switch it to the new secret."
        confirmLabel="Rotate secret"
        destructive={false}
        error={rotateError}
        onConfirm={async () => {
          try {
            const rotated = await rotate.mutateAsync({ networkId, webhookId: w.id });
            setSecret(rotated.secret);
          } catch (error) {
            setRotateError(problemSentence(error, 'rotate the secret'));
            throw error;
          }
        }}
      />
      <EditWebhookDialog webhook={w} networkId={networkId} open={editing} onOpenChange={setEditing} />
      <SecretDialog
        secret={secret}
        title="New signing secret"
        label="Signing secret"
        description="Switch your endpoint to this secret within 24 hours: until then deliveries are signed with both the new and the previous secret."
        onClose={() => setSecret(null)}
      />
    </>
  );
}

const editSchema = updateWebhookInput.pick({ url: true, events: true, description: true });

/**
 * Edit URL, events and description. The version is the one read when the
 * dialog opened, so a change made meanwhile by someone else is a 409, explained.
 */
function EditWebhookDialog({
  webhook: w,
  networkId,
  open,
  onOpenChange,
}: {
  webhook: Webhook;
  networkId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open && (
        <DialogContent title="Edit webhook" description="Changes apply to deliveries created from now on.">
          <EditWebhookForm webhook={w} networkId={networkId} onDone={() => onOpenChange(false)} />
        </DialogContent>
      )}
    </Dialog>
  );
}

function EditWebhookForm({ webhook, networkId, onDone }: { webhook: Webhook; networkId: string; onDone: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  // What the form was opened with: its version is sent with the change.
  const [opened, setOpened] = useState(webhook);
  const [conflict, setConflict] = useState(false);
  const update = useMutation(trpc.webhooks.update.mutationOptions());
  const defaults = (w: Webhook) => ({ url: w.url, events: w.events as never, description: w.description ?? '' });
  const form = useZodForm(editSchema, { defaultValues: defaults(opened) });

  async function reload() {
    const fresh = await queryClient.fetchQuery({ ...trpc.webhooks.get.queryOptions({ networkId, webhookId: opened.id }), staleTime: 0 });
    setOpened(fresh);
    setConflict(false);
    form.reset(defaults(fresh));
  }

  return (
    <DialogForm
      form={form}
      submitLabel="Save changes"
      onCancel={onDone}
      onSubmit={async (values) => {
        setConflict(false);
        try {
          await update.mutateAsync({
            networkId,
            webhookId: opened.id,
            url: values.url,
            events: values.events,
            description: values.description ?? null,
            version: opened.version,
          });
        } catch (error) {
          if (isVersionConflict(problemOf(error))) {
            setConflict(true);
            return;
          }
          throw error;
        }
        await queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() });
        toast.success('Webhook saved.');
        onDone();
      }}
    >
      <FormField form={form} name="url" label="Endpoint URL">
        {(field) => <Input type="url" autoComplete="off" {...field} />}
      </FormField>
      <EventTypesField control={form.control} name="events" error={form.formState.errors.events?.message} />
      <FormField form={form} name="description" label="Description (optional)">
        {(field) => <Textarea rows={2} {...field} />}
      </FormField>
      {conflict && (
        <div
          role="alert"
          className="flex flex-col gap-2 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 sm:flex-row sm:items-center sm:justify-between"
        >
          <p>{CONFLICT_SENTENCE}</p>
          <Button size="sm" variant="secondary" onClick={reload}>
            <RotateCw aria-hidden /> Reload
          </Button>
        </div>
      )}
    </DialogForm>
  );
}
