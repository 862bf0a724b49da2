'use client';

import { useQuery } from '@tanstack/react-query';
import { memo, useDeferredValue, useMemo } from 'react';
import { IntentLink } from '@/app/(console)/_components/ui/intent-link';
import { Activity } from 'lucide-react';
import type { ReactNode } from 'react';
import { namesById, useCampaigns, usePodcasts } from '@/app/(console)/_lib/ads';
import { formatDateTime } from '@/app/(console)/_lib/dates';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/app/(console)/_components/ui/card';
import { Skeleton } from '@/app/(console)/_components/ui/skeleton';
import { EmptyState, ErrorState, PageHeader } from '@/app/(console)/_components/ui/states';
import { networkPath, useNetworkId, useNetworkRole } from '@/app/(console)/_lib/network';
import { useTRPC } from '@/app/(console)/_lib/trpc';
import { DeliveryHealth } from './delivery-health';
import { describeEvent } from '@/app/(console)/_lib/event-summary';

export function OverviewPage() {
  const networkId = useNetworkId();
  // The key's role arrives with the first answers (useMe); React Query hands them over through
  // useSyncExternalStore, whose updates render synchronously. Deferring the role renders the
  // webhook card it reveals as a transition, in short slices, and Counts and RecentEvents (memo)
  // skip that synchronous render: on the overview's load that task was 146 ms at 4x CPU slowdown
  // (docs/PERFORMANCE.md, "Console (Lighthouse)").
  const role = useDeferredValue(useNetworkRole(networkId));
  return (
    <>
      <PageHeader
        title="Overview"
        description="What is happening in this network: its advertising at a glance, the latest events, and how webhook deliveries are doing."
      />
      <div className="min-w-0 space-y-6">
        <Counts networkId={networkId} />
        <div className="grid gap-6 xl:grid-cols-5">
          <div className="min-w-0 xl:col-span-3">
            {role === 'administrator' ? (
              <DeliveryHealth networkId={networkId} />
            ) : role === 'read_only' ? (
              <Card>
                <CardHeader>
                  <CardTitle>Webhook deliveries</CardTitle>
                </CardHeader>
                <CardContent>
                  <p className="text-sm text-slate-600">Webhook delivery health is visible to administrators of this network.</p>
                </CardContent>
              </Card>
            ) : (
              <Skeleton className="h-80 w-full" />
            )}
          </div>
          <div className="min-w-0 xl:col-span-2">
            <RecentEvents networkId={networkId} />
          </div>
        </div>
      </div>
    </>
  );
}

const Counts = memo(function Counts({ networkId }: { networkId: string }) {
  const trpc = useTRPC();
  const overview = useQuery(trpc.networks.overview.queryOptions({ networkId }, { refetchInterval: 15_000 }));
  if (overview.error) return <ErrorState error={overview.error} onRetry={() => overview.refetch()} />;
  const o = overview.data;
  const tiles: Array<{ label: string; value: number | undefined; detail: ReactNode; href: string }> = [
    { label: 'Advertisers', value: o?.advertisers, detail: 'brands buying ads', href: 'advertisers' },
    {
      label: 'Active campaigns',
      value: o?.campaigns.active,
      detail: o ? `${o.campaigns.draft} draft · ${o.campaigns.paused} paused · ${o.campaigns.completed} completed` : '',
      href: 'campaigns',
    },
    { label: 'Podcasts opted in', value: o?.podcasts.opted_in, detail: o ? `of ${o.podcasts.total} podcasts` : '', href: 'podcasts' },
    { label: 'Open offers', value: o?.offers.open, detail: o ? `${o.offers.accepted} accepted · ${o.offers.rejected} rejected` : '', href: 'offers' },
    {
      label: 'Creatives to review',
      value: o?.creatives.pending_approval,
      detail: o ? `${o.creatives.approved} approved · ${o.creatives.generating} generating · ${o.creatives.failed} failed` : '',
      href: 'review',
    },
  ];
  return (
    <section aria-label="Counts" aria-busy={!o || undefined} className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
      {tiles.map((tile) => (
        <IntentLink
          key={tile.label}
          href={networkPath(networkId, tile.href)}
          className="group rounded-lg border border-slate-200 bg-white p-4 shadow-sm hover:border-indigo-300 focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          <p className="text-xs font-medium text-slate-600 group-hover:text-indigo-700">{tile.label}</p>
          {tile.value === undefined ? (
            <Skeleton className="mt-2 h-7 w-12" />
          ) : (
            <p className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums" data-testid={`count-${tile.href}`}>
              {tile.value}
            </p>
          )}
          <p className="mt-1 text-xs text-slate-600">{tile.detail}</p>
        </IntentLink>
      ))}
    </section>
  );
});

const RecentEvents = memo(function RecentEvents({ networkId }: { networkId: string }) {
  const trpc = useTRPC();
  const events = useQuery(trpc.events.list.queryOptions({ networkId, limit: 10, order: 'desc' }, { refetchInterval: 10_000 }));
  const campaigns = useCampaigns(networkId);
  const podcasts = usePodcasts(networkId);
  const names = useMemo(
    () => ({ campaigns: namesById(campaigns.data?.items), podcasts: namesById(podcasts.data?.items) }),
    [campaigns.data, podcasts.data],
  );
  return (
    <Card className="h-full">
      <CardHeader>
        <div>
          <CardTitle>Recent events</CardTitle>
          <CardDescription>The latest things that happened, newest first — the same events webhooks deliver.</CardDescription>
        </div>
        <IntentLink
          href={networkPath(networkId, 'events')}
          className="shrink-0 text-sm font-medium text-indigo-700 underline-offset-4 hover:underline"
        >
          All events
        </IntentLink>
      </CardHeader>
      {events.error ? (
        <CardContent>
          <ErrorState error={events.error} onRetry={() => events.refetch()} />
        </CardContent>
      ) : !events.data ? (
        <CardContent className="space-y-3" aria-busy>
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} className="h-10 w-full" />
          ))}
        </CardContent>
      ) : events.data.items.length === 0 ? (
        <EmptyState
          icon={<Activity className="size-6" />}
          title="No events yet"
          description="Events appear when podcasts opt in, offers are accepted or rejected, creatives finish generating and invitations are accepted."
        />
      ) : (
        <ol className="divide-y divide-slate-100" aria-label="Recent events">
          {events.data.items.map((event) => {
            const summary = describeEvent(event.type, event.data, names);
            return (
              <li key={event.id} className="flex items-start justify-between gap-3 px-5 py-3">
                <div className="min-w-0">
                  <p className="font-mono text-xs font-medium text-slate-900">{event.type}</p>
                  <p className="mt-0.5 text-sm text-slate-700">
                    {summary.section ? (
                      <IntentLink href={networkPath(networkId, summary.section)} className="text-indigo-700 underline-offset-4 hover:underline">
                        {summary.text}
                      </IntentLink>
                    ) : (
                      summary.text
                    )}
                  </p>
                </div>
                <time
                  dateTime={event.occurred_at}
                  className="shrink-0 text-xs whitespace-nowrap text-slate-600"
                  title={formatDateTime(event.occurred_at)}
                >
                  {relativeTime(event.occurred_at)}
                </time>
              </li>
            );
          })}
        </ol>
      )}
    </Card>
  );
});

/** Made once, on first use: an Intl formatter is slow to build (see `_lib/dates.ts`). */
let relativeFormat: Intl.RelativeTimeFormat | undefined;

function relativeTime(value: string): string {
  const seconds = Math.round((Date.now() - Date.parse(value)) / 1000);
  const rtf = (relativeFormat ??= new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }));
  if (seconds < 60) return rtf.format(-seconds, 'second');
  if (seconds < 3600) return rtf.format(-Math.round(seconds / 60), 'minute');
  if (seconds < 86_400) return rtf.format(-Math.round(seconds / 3600), 'hour');
  return formatDateTime(value);
}
