'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Check, Copy, Send } from 'lucide-react';
import { useState } from 'react';
import { Badge, StatusBadge } from '@/app/(console)/_components/ui/badge';
import { Button } from '@/app/(console)/_components/ui/button';
import { DetailItem, DetailList, DetailSheet } from '@/app/(console)/_components/detail-sheet';
import { LoadingBlock } from '@/app/(console)/_components/ui/skeleton';
import { ErrorState } from '@/app/(console)/_components/ui/states';
import { toast } from '@/app/(console)/_components/ui/toaster';
import { problemSentence } from '@/app/(console)/_lib/problem';
import { useTRPC, type RouterOutputs } from '@/app/(console)/_lib/trpc';
import { formatLatency, prettyJson } from './format';
import { formatDateTime } from '@/app/(console)/_lib/dates';

type Webhook = RouterOutputs['webhooks']['get'];
type Detail = RouterOutputs['webhooks']['getDelivery'];

/** Whether a delivery can be sent again (the Redeliver / Retry now button, and the log's bulk Redeliver): while its webhook is enabled. */
export function canRedeliver(webhook: Webhook): boolean {
  return webhook.status !== 'disabled';
}

/** A side sheet with one delivery (`?delivery=` in the URL): the request as sent and every attempt. */
export function DeliveryPanel({
  networkId,
  webhook,
  deliveryId,
  onClose,
}: {
  networkId: string;
  webhook: Webhook;
  deliveryId: string | null;
  onClose: () => void;
}) {
  return (
    <DetailSheet objectId={deliveryId} onClose={onClose} title="Delivery">
      {(id) => <DeliveryDetail networkId={networkId} webhook={webhook} deliveryId={id} />}
    </DetailSheet>
  );
}

function DeliveryDetail({ networkId, webhook, deliveryId }: { networkId: string; webhook: Webhook; deliveryId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const detail = useQuery(
    trpc.webhooks.getDelivery.queryOptions(
      { networkId, webhookId: webhook.id, deliveryId },
      { refetchInterval: (q) => (q.state.data?.status === 'pending' ? 1_500 : false) },
    ),
  );
  const [redeliverError, setRedeliverError] = useState<string | null>(null);
  const redeliver = useMutation(
    trpc.webhooks.redeliver.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.webhooks.getDelivery.pathKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.webhooks.listDeliveries.pathKey() });
      },
    }),
  );

  if (detail.error) return <ErrorState error={detail.error} onRetry={() => detail.refetch()} />;
  if (!detail.data) return <LoadingBlock lines={6} />;
  const d = detail.data;
  const pending = d.status === 'pending';
  const disabled = !canRedeliver(webhook);

  return (
    <div className="space-y-6 text-sm">
      <section aria-label="Summary" className="space-y-3">
        <DetailList>
          <DetailItem label="Status">
            <StatusBadge status={d.status} />
          </DetailItem>
          <DetailItem label="Event">
            <span className="font-mono text-xs">{d.event_type}</span>
          </DetailItem>
          <DetailItem label="Attempts">{d.attempt_count}</DetailItem>
          <DetailItem label="Last status code">{d.last_status_code ?? '—'}</DetailItem>
          <DetailItem label="Created">{formatDateTime(d.created_at)}</DetailItem>
          <DetailItem label={pending ? 'Next attempt' : 'Succeeded'}>{formatDateTime(pending ? d.next_attempt_at : d.succeeded_at)}</DetailItem>
        </DetailList>
        <div className="space-y-2 rounded-md border border-slate-200 bg-slate-50 p-3">
          <Button
            size="sm"
            disabled={disabled}
            loading={redeliver.isPending}
            onClick={async () => {
              setRedeliverError(null);
              try {
                await redeliver.mutateAsync({ networkId, webhookId: webhook.id, deliveryId: d.id });
                toast.success(
                  pending ? 'Sending now instead of waiting for the next retry.' : 'Redelivery scheduled: same id, same body, freshly signed.',
                );
              } catch (error) {
                setRedeliverError(problemSentence(error, 'redeliver'));
              }
            }}
          >
            <Send aria-hidden /> {pending ? 'Retry now' : 'Redeliver'}
          </Button>
          <p className="text-xs text-slate-600">
            {disabled
              ? 'The webhook is disabled: enable it before sending deliveries again.'
              : pending
                ? 'Sends the next attempt now instead of at the scheduled time (same id, same body); an attempt already under way finishes first.'
                : 'Sends the same body with the same delivery id again; attempt numbers continue.'}
          </p>
          {redeliverError && (
            <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
              {redeliverError}
            </p>
          )}
        </div>
      </section>

      <section aria-labelledby="delivery-request" className="space-y-2">
        <h3 id="delivery-request" className="text-sm font-semibold text-slate-900">
          Request
        </h3>
        <p className="text-xs text-slate-600">POST {webhook.url} — with X-Service-Signature (never shown here) computed over the exact body.</p>
        <dl className="divide-y divide-slate-100 rounded-md border border-slate-200">
          {Object.entries(d.request.headers).map(([name, value]) => (
            <div key={name} className="grid gap-1 px-3 py-1.5 sm:grid-cols-[10rem_1fr]">
              <dt className="font-mono text-xs text-slate-600">{name}</dt>
              <dd className="font-mono text-xs break-all text-slate-900">{value}</dd>
            </div>
          ))}
        </dl>
        <Body body={d.request.body} />
      </section>

      <section aria-labelledby="delivery-attempts" className="space-y-2">
        <h3 id="delivery-attempts" className="text-sm font-semibold text-slate-900">
          Attempts ({d.attempts.length})
        </h3>
        {d.attempts.length === 0 ? (
          <p className="text-slate-600">No attempt yet: it is queued.</p>
        ) : (
          <ol className="space-y-3" aria-label="Attempts">
            {d.attempts.map((a) => (
              <Attempt key={a.attempt_number} attempt={a} />
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}

function Body({ body }: { body: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="overflow-hidden rounded-md border border-slate-200">
      <div className="flex items-center justify-between gap-2 border-b border-slate-200 bg-slate-50 px-3 py-1.5">
        <span className="text-xs font-medium text-slate-700">Body (pretty-printed)</span>
        <Button
          size="sm"
          variant="ghost"
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(body);
              setCopied(true);
              setTimeout(() => setCopied(false), 2000);
            } catch {
              toast.error('The browser refused the clipboard; select the text instead.');
            }
          }}
        >
          {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
          <span aria-live="polite">{copied ? 'Copied' : 'Copy exact body'}</span>
        </Button>
      </div>
      <pre className="max-h-72 overflow-auto bg-white p-3 font-mono text-xs text-slate-900" tabIndex={0} aria-label="Request body">
        {prettyJson(body)}
      </pre>
    </div>
  );
}

function Attempt({ attempt: a }: { attempt: Detail['attempts'][number] }) {
  const ok = a.status_code !== null && a.status_code >= 200 && a.status_code < 300;
  return (
    <li className="rounded-md border border-slate-200 p-3">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium text-slate-900">Attempt {a.attempt_number}</span>
        <Badge tone={ok ? 'success' : 'danger'}>{a.status_code ?? 'no response'}</Badge>
        <span className="text-xs text-slate-600">{formatDateTime(a.started_at)}</span>
        <span className="text-xs text-slate-600">· {formatLatency(a.latency_ms)}</span>
      </div>
      {a.error && <p className="mt-2 text-xs text-red-800">Error: {a.error}</p>}
      {a.response_body !== null && a.response_body !== '' && (
        <pre
          className="mt-2 max-h-40 overflow-auto rounded bg-slate-50 p-2 font-mono text-xs text-slate-800"
          tabIndex={0}
          aria-label={`Response to attempt ${a.attempt_number}`}
        >
          {a.response_body}
        </pre>
      )}
    </li>
  );
}
