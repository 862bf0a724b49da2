'use client';

import { useQuery } from '@tanstack/react-query';
import { Webhook } from 'lucide-react';
import { IntentLink } from '@/app/(console)/_components/ui/intent-link';
import { useId, useState } from 'react';
import dynamic from 'next/dynamic';
import { buttonVariants } from '@/app/(console)/_components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/app/(console)/_components/ui/card';
import { Skeleton } from '@/app/(console)/_components/ui/skeleton';
import { EmptyState, ErrorState } from '@/app/(console)/_components/ui/states';
import { networkPath } from '@/app/(console)/_lib/network';
import { useTRPC } from '@/app/(console)/_lib/trpc';
import { cn } from '@/app/(console)/_lib/cn';
import { formatTick, timeZoneLabel } from '@/app/(console)/_lib/dates';

type Range = 'hour' | 'day';
/** recharts is a large bundle: loaded only when there are deliveries to draw, after the page is up. */
const DeliveryChart = dynamic(() => import('./delivery-chart').then((m) => m.DeliveryChart), {
  ssr: false,
  loading: () => <Skeleton className="h-full w-full" />,
});

const RANGES: Array<{ value: Range; label: string; caption: string }> = [
  { value: 'hour', label: '24 hours', caption: 'per hour over the last 24 hours' },
  { value: 'day', label: '14 days', caption: 'per day over the last 14 days' },
];

/** Webhook deliveries succeeded / failed / pending and p50 / p95 latency over time (administrators). */
export function DeliveryHealth({ networkId }: { networkId: string }) {
  const trpc = useTRPC();
  const [bucket, setBucket] = useState<Range>('hour');
  const captionId = useId();
  const stats = useQuery(trpc.webhooks.deliveryStats.queryOptions({ networkId, bucket }, { refetchInterval: 15_000 }));
  const hooks = useQuery(trpc.webhooks.list.queryOptions({ networkId, limit: 1 }));
  const range = RANGES.find((r) => r.value === bucket)!;
  const totals = stats.data?.totals;
  const total = totals ? totals.succeeded + totals.failed + totals.pending : 0;

  const data = stats.data?.buckets.map((b) => ({
    label: formatTick(b.start, bucket),
    Succeeded: b.succeeded,
    Failed: b.failed,
    Pending: b.pending,
    'p50 latency (ms)': b.latency_p50_ms,
    'p95 latency (ms)': b.latency_p95_ms,
  }));

  return (
    <Card className="h-full">
      <CardHeader>
        <div>
          <CardTitle>Webhook deliveries</CardTitle>
          <CardDescription>
            Succeeded and failed deliveries, and how fast endpoints answered, {range.caption} (UTC buckets, times in {timeZoneLabel()}).
          </CardDescription>
        </div>
        <div role="group" aria-label="Range" className="inline-flex rounded-md border border-slate-300 bg-white p-0.5 shadow-sm">
          {RANGES.map((r) => (
            <button
              key={r.value}
              type="button"
              aria-pressed={bucket === r.value}
              onClick={() => setBucket(r.value)}
              className={cn(
                'rounded px-3 py-1 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-600',
                bucket === r.value ? 'bg-indigo-600 text-white' : 'text-slate-700 hover:bg-slate-100',
              )}
            >
              {r.label}
            </button>
          ))}
        </div>
      </CardHeader>
      <CardContent>
        {stats.error ? (
          <ErrorState error={stats.error} onRetry={() => stats.refetch()} />
        ) : !stats.data || !hooks.data ? (
          <Skeleton className="h-72 w-full" />
        ) : hooks.data.items.length === 0 && total === 0 ? (
          <EmptyState
            icon={<Webhook className="size-6" />}
            title="No webhooks yet"
            description="Add a webhook to have events delivered to your servers; its delivery health shows here."
            action={
              <IntentLink href={networkPath(networkId, 'webhooks')} className={buttonVariants({ variant: 'secondary', size: 'sm' })}>
                Go to webhooks
              </IntentLink>
            }
          />
        ) : total === 0 ? (
          <EmptyState
            icon={<Webhook className="size-6" />}
            title="No deliveries in this period"
            description="Deliveries appear here as events happen for your webhooks' subscribed types."
          />
        ) : (
          <figure aria-labelledby={captionId} data-testid="delivery-chart">
            <div className="h-72 w-full">
              <DeliveryChart data={data ?? []} />
            </div>
            <figcaption id={captionId} className="mt-3 text-sm text-slate-700">
              {range.label}: <strong className="text-emerald-800">{totals!.succeeded} succeeded</strong>,{' '}
              <strong className="text-red-800">{totals!.failed} failed</strong>, {totals!.pending} pending
              {latencySummary(stats.data.buckets)}.
            </figcaption>
          </figure>
        )}
      </CardContent>
    </Card>
  );
}

function latencySummary(buckets: Array<{ latency_p95_ms: number | null; latency_p50_ms: number | null }>): string {
  const p50 = buckets.map((b) => b.latency_p50_ms).filter((v): v is number => v !== null);
  const p95 = buckets.map((b) => b.latency_p95_ms).filter((v): v is number => v !== null);
  if (p50.length === 0) return '';
  const median = [...p50].sort((a, b) => a - b)[Math.floor(p50.length / 2)]!;
  return `; typical latency ${median} ms, worst p95 ${Math.max(...p95)} ms`;
}
