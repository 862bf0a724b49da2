'use client';

import { ExportCsvButton } from '@/app/(console)/_components/export-csv-button';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { Plus, Webhook as WebhookIcon } from 'lucide-react';
import { IntentLink } from '@/app/(console)/_components/ui/intent-link';
import { useRouter } from 'next/navigation';
import { useMemo, useState } from 'react';
import { createWebhookInput } from '@/server/routers/webhooks/create-webhook.types';
import { FormDialog } from '@/app/(console)/_components/form-dialog';
import { SecretDialog } from '@/app/(console)/_components/secret-dialog';
import { Badge, StatusBadge } from '@/app/(console)/_components/ui/badge';
import { Button } from '@/app/(console)/_components/ui/button';
import { DataTable, type DataTableColumn } from '@/app/(console)/_components/ui/data-table';
import { FormField, useZodForm } from '@/app/(console)/_components/ui/form';
import { Input, Textarea } from '@/app/(console)/_components/ui/input';
import { EmptyState, PageHeader } from '@/app/(console)/_components/ui/states';
import { networkPath, useNetworkId, useNetworkRole } from '@/app/(console)/_lib/network';
import { byCursor, pagedList, pagedTable } from '@/app/(console)/_lib/paged-list';
import { useTRPC, type RouterOutputs } from '@/app/(console)/_lib/trpc';
import { WebhooksAdminOnly } from './admin-only';
import { EventTypesField } from './event-types-field';
import { formatDateTime } from '@/app/(console)/_lib/dates';
import { WebhookHealthCell } from './webhook-health';

type Webhook = RouterOutputs['webhooks']['list']['items'][number];

const PAGE_SIZE = 50;

export function WebhooksPage() {
  const networkId = useNetworkId();
  const role = useNetworkRole(networkId);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ id: string; secret: string } | null>(null);
  const router = useRouter();

  const header = (
    <PageHeader
      title="Webhooks"
      description="Endpoints that receive a signed POST when something happens in this network — an offer accepted, a creative ready. Each delivery is retried until your endpoint answers 2xx."
      actions={
        role === 'administrator' ? (
          <>
            <ExportCsvButton path={`/networks/${networkId}/webhooks`} params={{}} />
            <Button onClick={() => setCreating(true)}>
              <Plus aria-hidden /> Add webhook
            </Button>
          </>
        ) : undefined
      }
    />
  );

  if (role === 'read_only') {
    return (
      <>
        {header}
        <WebhooksAdminOnly />
      </>
    );
  }

  return (
    <>
      {header}
      {role === 'administrator' ? (
        <WebhookList networkId={networkId} onCreate={() => setCreating(true)} />
      ) : (
        <DataTable columns={[]} rows={undefined} label="Webhooks" />
      )}
      <CreateWebhookDialog
        networkId={networkId}
        open={creating}
        onOpenChange={setCreating}
        onCreated={(hook) => {
          setCreating(false);
          setCreated(hook);
        }}
      />
      <SecretDialog
        secret={created?.secret ?? null}
        title="Webhook created"
        label="Signing secret"
        description="Your endpoint verifies every delivery with this secret: X-Service-Signature is the hex HMAC-SHA256 of the raw request body, keyed by it."
        onClose={() => {
          const id = created?.id;
          setCreated(null);
          if (id) router.push(networkPath(networkId, `webhooks/${id}`));
        }}
      />
    </>
  );
}

function WebhookList({ networkId, onCreate }: { networkId: string; onCreate: () => void }) {
  const trpc = useTRPC();
  const input = { networkId, limit: PAGE_SIZE };
  const list = useInfiniteQuery(trpc.webhooks.list.infiniteQueryOptions(input, byCursor));
  const rows = list.data?.pages.flatMap((page) => page.items);
  const router = useRouter();

  const columns = useMemo<DataTableColumn<Webhook>[]>(
    () => [
      {
        accessorKey: 'url',
        header: 'Endpoint',
        cell: ({ row }) => (
          <div className="max-w-md min-w-48">
            <IntentLink
              href={networkPath(networkId, `webhooks/${row.original.id}`)}
              className="font-medium break-all text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
              onClick={(event) => event.stopPropagation()}
            >
              {row.original.url}
            </IntentLink>
            {row.original.description && <p className="mt-0.5 text-xs text-slate-600">{row.original.description}</p>}
          </div>
        ),
      },
      {
        accessorKey: 'events',
        header: 'Events',
        enableSorting: false,
        cell: ({ row }) => (
          <div className="flex max-w-72 min-w-40 flex-wrap gap-1">
            {row.original.events.map((type) => (
              <Badge key={type} tone="neutral" className="font-mono">
                {type}
              </Badge>
            ))}
          </div>
        ),
      },
      {
        accessorKey: 'status',
        header: 'Status',
        cell: ({ row }) => (
          <div className="min-w-24">
            <StatusBadge status={row.original.status} />
            {row.original.disabled_reason && <p className="mt-1 max-w-56 text-xs text-amber-800">{row.original.disabled_reason}</p>}
          </div>
        ),
      },
      { id: 'health', header: 'Last delivery · 24 h', enableSorting: false, cell: ({ row }) => <WebhookHealthCell health={row.original.health} /> },
      {
        accessorKey: 'created_at',
        header: 'Created',
        cell: ({ row }) => <span className="whitespace-nowrap">{formatDateTime(row.original.created_at)}</span>,
      },
    ],
    [networkId],
  );

  return (
    <DataTable
      {...pagedTable(pagedList(list))}
      columns={columns}
      rows={rows}
      label="Webhooks"
      onRowClick={(hook) => router.push(networkPath(networkId, `webhooks/${hook.id}`))}
      empty={
        <EmptyState
          icon={<WebhookIcon className="size-6" />}
          title="No webhooks yet"
          description="Add an endpoint to be told when offers are accepted, podcasts opt in or creatives are ready, instead of polling the API."
          action={
            <Button size="sm" onClick={onCreate}>
              <Plus aria-hidden /> Add webhook
            </Button>
          }
        />
      }
    />
  );
}

const createSchema = createWebhookInput.omit({ networkId: true });

function CreateWebhookDialog({
  networkId,
  open,
  onOpenChange,
  onCreated,
}: {
  networkId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: (hook: { id: string; secret: string }) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const create = useMutation(
    trpc.webhooks.create.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() }),
    }),
  );
  const form = useZodForm(createSchema, { defaultValues: { url: '', events: [], description: '' } });
  const eventsError = form.formState.errors.events?.message;

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      resetOnDismiss
      title="Add webhook"
      description="Deliveries are JSON POSTs signed with a secret you will see once, after you create the webhook."
      form={form}
      submitLabel="Create webhook"
      onSubmit={async (values) => {
        const hook = await create.mutateAsync({ ...values, networkId });
        form.reset();
        onCreated({ id: hook.id, secret: hook.secret });
      }}
    >
      <FormField
        form={form}
        name="url"
        label="Endpoint URL"
        description="An http or https URL your server answers with 2xx. Private and loopback addresses are refused."
      >
        {(field) => <Input type="url" placeholder="https://example.com/webhooks/ads" autoComplete="off" {...field} />}
      </FormField>
      <EventTypesField control={form.control} name="events" error={eventsError} />
      <FormField form={form} name="description" label="Description (optional)" description="A note for your team, e.g. what consumes these events.">
        {(field) => <Textarea rows={2} {...field} />}
      </FormField>
    </FormDialog>
  );
}
