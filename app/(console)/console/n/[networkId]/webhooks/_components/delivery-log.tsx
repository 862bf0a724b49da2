'use client';

import { ExportCsvButton } from '@/app/(console)/_components/export-csv-button';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { History, Inbox, Send } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { deliveryStatusSchema } from '@/server/routers/webhooks/delivery.types';
import { recoverDeliveriesInput } from '@/server/routers/webhooks/recover-deliveries.types';
import { useBulkRun } from '@/app/(console)/_components/bulk-run';
import { Badge, StatusBadge } from '@/app/(console)/_components/ui/badge';
import { Button } from '@/app/(console)/_components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/app/(console)/_components/ui/card';
import { ConfirmDialog } from '@/app/(console)/_components/ui/confirm-dialog';
import { DataTable, type DataTableColumn } from '@/app/(console)/_components/ui/data-table';
import { DateTime } from '@/app/(console)/_components/ui/date-time';
import { Input } from '@/app/(console)/_components/ui/input';
import { Label } from '@/app/(console)/_components/ui/label';
import { optionsOf, Select } from '@/app/(console)/_components/ui/select';
import { EmptyState } from '@/app/(console)/_components/ui/states';
import { byCursor, pagedList, pagedTable } from '@/app/(console)/_lib/paged-list';
import { problemSentence } from '@/app/(console)/_lib/problem';
import { useOpenObject } from '@/app/(console)/_lib/open-object';
import { useTRPC, type RouterInputs, type RouterOutputs } from '@/app/(console)/_lib/trpc';
import { canRedeliver, DeliveryPanel } from './delivery-panel';
import { formatLatency, fromLocalInput, toLocalInput } from './format';

type Webhook = RouterOutputs['webhooks']['get'];
type Delivery = RouterOutputs['webhooks']['listDeliveries']['items'][number];
type Status = NonNullable<RouterInputs['webhooks']['listDeliveries']['status']>;
type EventType = NonNullable<RouterInputs['webhooks']['listDeliveries']['event_type']>;

const PAGE_SIZE = 25;

/** A delivery as its checkbox and its result name it. */
const deliveryName = (d: Delivery) => `${d.event_type} · ${d.id.slice(0, 8)}…`;
const STATUS_OPTIONS = optionsOf(deliveryStatusSchema.options, { pending: 'Pending (queued or retrying)' });

export function DeliveryLog({ networkId, webhook }: { networkId: string; webhook: Webhook }) {
  const trpc = useTRPC();
  const ids = useId();
  const [status, setStatus] = useState('');
  const [eventType, setEventType] = useState('');
  const [since, setSince] = useState('');
  const [until, setUntil] = useState('');
  const opened = useOpenObject('delivery');
  const queryClient = useQueryClient();
  const redeliver = useMutation(trpc.webhooks.redeliver.mutationOptions());
  const bulk = useBulkRun({
    onFinished: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: trpc.webhooks.getDelivery.pathKey() }),
        queryClient.invalidateQueries({ queryKey: trpc.webhooks.listDeliveries.pathKey() }),
      ]),
  });

  const input = {
    networkId,
    webhookId: webhook.id,
    limit: PAGE_SIZE,
    order: 'desc' as const,
    ...(status ? { status: status as Status } : {}),
    ...(eventType ? { event_type: eventType as EventType } : {}),
    ...(fromLocalInput(since) ? { since: fromLocalInput(since) } : {}),
    ...(fromLocalInput(until) ? { until: fromLocalInput(until) } : {}),
  };
  const log = useInfiniteQuery(
    trpc.webhooks.listDeliveries.infiniteQueryOptions(input, {
      ...byCursor,
      // New deliveries and retries show up on their own; faster while some are under way.
      refetchInterval: (query) => (query.state.data?.pages.some((p) => p.items.some((d) => d.status === 'pending')) ? 2_000 : 5_000),
    }),
  );
  const rows = log.data?.pages.flatMap((page) => page.items);
  const filtered = Boolean(status || eventType || since || until);

  const columns = useMemo<DataTableColumn<Delivery>[]>(
    () => [
      {
        accessorKey: 'event_type',
        header: 'Event',
        // Every delivery of a test network is a test: the badge goes under the type where the table is tight.
        cell: ({ row }) => (
          <span className="inline-flex flex-wrap items-center gap-x-1 gap-y-0.5">
            <span className="font-mono text-xs whitespace-nowrap">{row.original.event_type}</span>
            {row.original.test && <Badge tone="info">test</Badge>}
          </span>
        ),
      },
      {
        accessorKey: 'id',
        header: 'Delivery id',
        enableSorting: false,
        cell: ({ row }) => (
          <span className="font-mono text-xs text-slate-600" title={row.original.id}>
            {row.original.id.slice(0, 8)}…
          </span>
        ),
      },
      { accessorKey: 'status', header: 'Status', cell: ({ row }) => <StatusBadge status={row.original.status} /> },
      {
        accessorKey: 'attempt_count',
        header: 'Attempts · code',
        cell: ({ row }) => (
          <span className="tabular-nums whitespace-nowrap">
            {row.original.attempt_count}
            {row.original.attempt_count > 0 && <span className="text-slate-600"> · {row.original.last_status_code ?? 'no response'}</span>}
          </span>
        ),
      },
      {
        accessorKey: 'last_latency_ms',
        header: 'Latency',
        cell: ({ row }) => <span className="tabular-nums whitespace-nowrap">{formatLatency(row.original.last_latency_ms)}</span>,
      },
      { accessorKey: 'created_at', header: 'Time', cell: ({ row }) => <DateTime value={row.original.created_at} /> },
    ],
    [],
  );

  return (
    <Card aria-labelledby={`${ids}-title`}>
      <CardHeader>
        <div>
          <CardTitle id={`${ids}-title`}>Deliveries</CardTitle>
          <CardDescription>Newest first, refreshed every few seconds. Select a delivery to see the exact request and every attempt.</CardDescription>
        </div>
        <RecoverForm networkId={networkId} webhook={webhook} />
      </CardHeader>
      <CardContent className="space-y-4">
        {/* Two filters a row from sm up: a date-time input needs ~14rem to show its whole value. */}
        <div className="grid gap-3 sm:grid-cols-2 sm:items-end">
          <div className="space-y-1.5">
            <Label htmlFor={`${ids}-status`}>Status</Label>
            <Select
              id={`${ids}-status`}
              value={status}
              onChange={(e) => setStatus(e.target.value)}
              options={STATUS_OPTIONS}
              placeholder="Any status"
            />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={`${ids}-event`}>Event type</Label>
            <Select
              id={`${ids}-event`}
              value={eventType}
              onChange={(e) => setEventType(e.target.value)}
              options={webhook.events.map((t) => ({ value: t, label: t }))}
              placeholder="Any event"
            />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={`${ids}-since`}>Created since</Label>
            <Input id={`${ids}-since`} type="datetime-local" value={since} onChange={(e) => setSince(e.target.value)} />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={`${ids}-until`}>Created until</Label>
            <Input id={`${ids}-until`} type="datetime-local" value={until} onChange={(e) => setUntil(e.target.value)} />
          </div>
          <div className="flex flex-wrap gap-2 sm:col-span-2">
            <Button
              variant="ghost"
              disabled={!filtered}
              onClick={() => {
                setStatus('');
                setEventType('');
                setSince('');
                setUntil('');
              }}
            >
              Clear filters
            </Button>
            <ExportCsvButton
              path={`/networks/${networkId}/webhooks/${webhook.id}/deliveries`}
              params={{ order: 'desc', status: input.status, event_type: input.event_type, since: input.since, until: input.until }}
            />
          </div>
        </div>
        <DataTable
          {...pagedTable(pagedList(log))}
          columns={columns}
          rows={rows}
          label="Deliveries"
          onRowClick={(d) => opened.open(d.id)}
          selectedRowId={opened.id ?? undefined}
          selection={{
            // The panel's Redeliver / Retry now button: any delivery, while the webhook is enabled.
            canSelect: () => canRedeliver(webhook),
            nameOf: deliveryName,
            resetKey: [status, eventType, since, until].join('|'),
            actions: (selected, clear) => {
              const deliveries = `${selected.length} ${selected.length === 1 ? 'delivery' : 'deliveries'}`;
              return (
                <ConfirmDialog
                  trigger={
                    <Button size="sm">
                      <Send aria-hidden /> Redeliver
                    </Button>
                  }
                  title={`Redeliver ${deliveries}?`}
                  description="Each is sent again with the same id and body, freshly signed, and its attempt numbers continue; a pending one is sent now instead of at its next retry."
                  confirmLabel={`Redeliver ${deliveries}`}
                  destructive={false}
                  onConfirm={() => {
                    bulk.start({
                      title: 'Redeliver deliveries',
                      done: 'scheduled',
                      items: selected.map((d) => ({
                        id: d.id,
                        name: deliveryName(d),
                        perform: () => redeliver.mutateAsync({ networkId, webhookId: webhook.id, deliveryId: d.id }),
                      })),
                    });
                    clear();
                  }}
                />
              );
            },
          }}
          empty={
            <EmptyState
              icon={<Inbox className="size-6" />}
              title={filtered ? 'No deliveries match these filters' : 'No deliveries yet'}
              description={
                filtered
                  ? 'Clear or widen the filters to see more.'
                  : `A delivery appears here each time one of this webhook’s events happens (${webhook.events.join(', ')}).`
              }
            />
          }
        />
      </CardContent>
      <DeliveryPanel networkId={networkId} webhook={webhook} deliveryId={opened.id} onClose={opened.close} />
      {bulk.dialog}
    </Card>
  );
}

/** "Recover failed since…": re-send every failed delivery created since a time (default 24 h ago). */
function RecoverForm({ networkId, webhook }: { networkId: string; webhook: Webhook }) {
  const trpc = useTRPC();
  const id = useId();
  const queryClient = useQueryClient();
  const [since, setSince] = useState(() => toLocalInput(new Date(Date.now() - 24 * 3_600_000)));
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const recover = useMutation(
    trpc.webhooks.recover.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.listDeliveries.pathKey() }),
    }),
  );
  return (
    <form
      className="w-full max-w-md space-y-1.5 sm:w-auto"
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        setMessage(null);
        const parsed = recoverDeliveriesInput.shape.since.safeParse(fromLocalInput(since));
        if (!parsed.success) {
          setMessage({ ok: false, text: parsed.error.issues[0]?.message ?? 'Pick a date and time.' });
          return;
        }
        try {
          const { recovered } = await recover.mutateAsync({ networkId, webhookId: webhook.id, since: parsed.data });
          setMessage({
            ok: true,
            text:
              recovered === 0
                ? 'No failed deliveries since then: nothing to re-send.'
                : `Re-sent ${recovered} failed ${recovered === 1 ? 'delivery' : 'deliveries'}; watch them below.`,
          });
        } catch (error) {
          setMessage({ ok: false, text: problemSentence(error, 'recover failed deliveries') });
        }
      }}
    >
      <Label htmlFor={`${id}-since`}>Recover failed since…</Label>
      <div className="flex flex-wrap gap-2">
        <Input
          id={`${id}-since`}
          type="datetime-local"
          value={since}
          onChange={(e) => setSince(e.target.value)}
          aria-describedby={`${id}-hint`}
          className="w-auto min-w-[14rem] flex-1"
        />
        <Button type="submit" variant="secondary" loading={recover.isPending}>
          <History aria-hidden /> Recover
        </Button>
      </div>
      <p id={`${id}-hint`} className="text-xs text-slate-600">
        Sends every failed delivery created since then again (within the retention window: deliveries are kept 30 days by default).
      </p>
      {message && (
        <p role={message.ok ? 'status' : 'alert'} className={message.ok ? 'text-sm text-emerald-800' : 'text-sm text-red-800'}>
          {message.text}
        </p>
      )}
    </form>
  );
}
