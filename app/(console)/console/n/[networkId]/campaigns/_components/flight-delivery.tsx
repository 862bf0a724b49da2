'use client';

import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { ArrowLeft, Handshake, Target } from 'lucide-react';
import dynamic from 'next/dynamic';
import { useParams } from 'next/navigation';
import { useEffect, useId, useMemo, type ReactNode } from 'react';
import { DELIVERY_COUNT_LABELS } from '@/domain/measurement';
import { flightPacing } from '@/domain/pacing';
import { ExportCsvButton } from '@/app/(console)/_components/export-csv-button';
import { StatusBadge } from '@/app/(console)/_components/ui/badge';
import { buttonVariants } from '@/app/(console)/_components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/app/(console)/_components/ui/card';
import { DataTable, type DataTableColumn } from '@/app/(console)/_components/ui/data-table';
import { DateTime } from '@/app/(console)/_components/ui/date-time';
import { IntentLink } from '@/app/(console)/_components/ui/intent-link';
import { LoadingBlock, Skeleton } from '@/app/(console)/_components/ui/skeleton';
import { EmptyState, ErrorState, PageHeader } from '@/app/(console)/_components/ui/states';
import { formatTerms } from '@/app/(console)/_lib/ads';
import { formatDay, utcDay } from '@/app/(console)/_lib/dates';
import { networkPath, useNetworkId } from '@/app/(console)/_lib/network';
import { byCursor, pagedList, pagedTable } from '@/app/(console)/_lib/paged-list';
import { useTRPC, type RouterOutputs } from '@/app/(console)/_lib/trpc';
import type { FlightDay } from './flight-delivery-charts';
import { PacingBadge, pacingSentence } from './pacing';

type Flight = RouterOutputs['flights']['get'];
type DeliveryRow = RouterOutputs['reports']['delivery']['items'][number];

/** recharts is a large bundle: loaded with the page's data, not with the campaign pages. */
const DailyImpressionsChart = dynamic(() => import('./flight-delivery-charts').then((m) => m.DailyImpressionsChart), {
  ssr: false,
  loading: () => <Skeleton className="h-full w-full" />,
});
const PacingChart = dynamic(() => import('./flight-delivery-charts').then((m) => m.PacingChart), {
  ssr: false,
  loading: () => <Skeleton className="h-full w-full" />,
});

const DAY_MS = 86_400_000;
/** The delivery report's longest range (`from` to `to`, both included). */
const MAX_REPORT_DAYS = 366;

const addDays = (day: string, days: number) => utcDay(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS);

/**
 * The UTC days the flight runs on (its first to its last; an end at midnight is the day before's
 * end), and the report's range: those days up to today, at most MAX_REPORT_DAYS of them (the last).
 * `report` is null before the flight's first day.
 */
export function flightDays(flight: Pick<Flight, 'starts_at' | 'ends_at'>, now = Date.now()) {
  const first = utcDay(flight.starts_at);
  const last = utcDay(Math.max(Date.parse(flight.starts_at), Date.parse(flight.ends_at) - 1));
  const days: string[] = [];
  for (let day = first; day <= last; day = addDays(day, 1)) days.push(day);
  const today = utcDay(now);
  if (today < first) return { days, report: null };
  const to = today < last ? today : last;
  const earliest = addDays(to, -(MAX_REPORT_DAYS - 1));
  return { days, report: { from: first < earliest ? earliest : first, to } };
}

/** A flight's delivery: its facts and pacing, daily impressions (tracked and reported), pacing against the goal, and the podcasts it ran on. */
export function FlightDelivery() {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const params = useParams<{ campaignId: string; flightId: string }>();
  const campaignId = decodeURIComponent(params.campaignId);
  const flightId = decodeURIComponent(params.flightId);
  const flight = useQuery(trpc.flights.get.queryOptions({ networkId, flightId }));
  const campaign = useQuery(trpc.campaigns.get.queryOptions({ networkId, campaignId }));

  const back = (
    <IntentLink
      href={networkPath(networkId, `campaigns/${encodeURIComponent(campaignId)}`)}
      className="mb-3 inline-flex items-center gap-1 text-sm text-indigo-700 underline-offset-4 hover:underline"
    >
      <ArrowLeft className="size-4" aria-hidden /> {campaign.data ? campaign.data.name : 'Campaign'}
    </IntentLink>
  );
  if (flight.error || !flight.data) {
    return (
      <>
        {back}
        <PageHeader title="Flight" />
        {flight.error ? <ErrorState error={flight.error} onRetry={() => flight.refetch()} /> : <LoadingBlock label="Loading the flight…" />}
      </>
    );
  }
  const f = flight.data;
  return (
    <>
      {back}
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-3">
            {f.name} <StatusBadge status={f.status} className="text-sm" />
          </span>
        }
        description={formatTerms(f)}
      />
      <FlightDeliveryView flight={f} />
    </>
  );
}

function FlightDeliveryView({ flight }: { flight: Flight }) {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  // Today, read once per flight shown: the range stays put while the page is open.
  const { days, report } = useMemo(() => flightDays(flight), [flight]);
  const accepted = useQuery(trpc.offers.list.queryOptions({ networkId, flight_id: flight.id, status: 'accepted', limit: 1 }));
  const daily = useWholeReport({ networkId, flight_id: flight.id, group_by: 'day', from: report?.from, to: report?.to }, report !== null);
  const noOffers = accepted.data?.items.length === 0;

  // Before the first day there is no report to read: the chart shows the even-delivery line alone.
  const series = useMemo(
    () => (report === null ? flightSeries(flight, days, [], null) : daily.rows ? flightSeries(flight, days, daily.rows, report.to) : undefined),
    [flight, days, daily.rows, report],
  );

  return (
    <div className="space-y-6">
      <FlightFacts flight={flight} />
      {noOffers && (
        <Card>
          <EmptyState
            icon={<Handshake className="size-6" />}
            title="No offers accepted yet"
            description="Delivery is counted once a podcast accepts an offer on this flight and its ad server calls the offer’s tracking URL. Offer the flight to podcasts from the campaign page."
            action={
              <IntentLink
                href={networkPath(networkId, `campaigns/${encodeURIComponent(flight.campaign_id)}`)}
                className={buttonVariants({ variant: 'secondary', size: 'sm' })}
              >
                Back to the campaign
              </IntentLink>
            }
          />
        </Card>
      )}
      <DailyCard flight={flight} report={report} daily={daily} series={series} />
      <PacingCard flight={flight} series={series} error={daily.error} onRetry={daily.refetch} />
      <PodcastsCard flight={flight} report={report} />
    </div>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium tracking-wide text-slate-600 uppercase">{term}</dt>
      <dd className="mt-0.5 text-slate-900">{children}</dd>
    </div>
  );
}

function FlightFacts({ flight }: { flight: Flight }) {
  return (
    <Card>
      <CardContent>
        <dl className="grid grid-cols-1 gap-4 text-sm sm:grid-cols-2 xl:grid-cols-4" data-testid="flight-facts">
          <Fact term="Dates">
            <DateTime value={flight.starts_at} /> → <DateTime value={flight.ends_at} />
          </Fact>
          <Fact term="Goal">{flight.impression_goal ? `${flight.impression_goal.toLocaleString()} impressions` : 'No goal'}</Fact>
          <Fact term="Delivered (tracked)">
            <span className="tabular-nums" data-testid="flight-delivered">
              {flight.delivered_impressions.toLocaleString()} {flight.delivered_impressions === 1 ? 'impression' : 'impressions'}
            </span>
          </Fact>
          <Fact term="Pacing">
            {flight.pacing ? <PacingBadge pacing={flight.pacing} /> : <span className="text-slate-600">None: the flight has no impression goal</span>}
          </Fact>
        </dl>
      </CardContent>
    </Card>
  );
}

/** The two counts, each with what it means (domain/measurement.ts): the charts and tables name them. */
function CountsLegend() {
  return (
    <dl className="mt-2 grid gap-1 text-xs text-slate-600 sm:grid-cols-2">
      <div>
        <dt className="inline font-semibold text-slate-800">Tracked: </dt>
        <dd className="inline">{DELIVERY_COUNT_LABELS.tracked}</dd>
      </div>
      <div>
        <dt className="inline font-semibold text-slate-800">Reported: </dt>
        <dd className="inline">{DELIVERY_COUNT_LABELS.reported}</dd>
      </div>
    </dl>
  );
}

type Report = ReturnType<typeof flightDays>['report'];
type WholeReport = ReturnType<typeof useWholeReport>;

function rangeWords(report: NonNullable<Report>): string {
  return report.from === report.to ? formatDay(report.from) : `${formatDay(report.from)} to ${formatDay(report.to)}`;
}

function DailyCard({ flight, report, daily, series }: { flight: Flight; report: Report; daily: WholeReport; series: FlightDay[] | undefined }) {
  const networkId = useNetworkId();
  const captionId = useId();
  const shown = series?.filter((d) => d.tracked !== null) ?? [];
  const tracked = shown.reduce((sum, d) => sum + (d.tracked ?? 0), 0);
  const reportedDays = shown.filter((d) => d.reported !== null);
  const reported = reportedDays.reduce((sum, d) => sum + (d.reported ?? 0), 0);
  const busiest = shown.reduce<FlightDay | null>((best, d) => ((d.tracked ?? 0) > (best?.tracked ?? 0) ? d : best), null);
  return (
    <Card aria-labelledby="flight-daily-title">
      <CardHeader>
        <div className="min-w-0 flex-[1_1_18rem]">
          <CardTitle id="flight-daily-title">Daily impressions</CardTitle>
          <CardDescription>
            Per UTC day over the flight’s dates{report ? `, ${rangeWords(report)} so far` : ''}, both counts side by side.
          </CardDescription>
          <CountsLegend />
        </div>
        {report && (
          <ExportCsvButton
            size="sm"
            label="Export days (CSV)"
            path={`/networks/${networkId}/reports/delivery`}
            params={{ group_by: 'day', flight_id: flight.id, from: report.from, to: report.to }}
          />
        )}
      </CardHeader>
      <CardContent>
        {!report ? (
          <EmptyState
            title="The flight has not started"
            description={`Its first day is ${formatDay(utcDay(flight.starts_at))} (UTC): daily impressions show here from then.`}
          />
        ) : daily.error ? (
          <ErrorState error={daily.error} onRetry={daily.refetch} />
        ) : !series ? (
          <Skeleton className="h-72 w-full" />
        ) : (
          <figure aria-labelledby={captionId} data-testid="daily-chart">
            <div className="h-72 w-full overflow-hidden">
              <DailyImpressionsChart data={series} />
            </div>
            <figcaption id={captionId} className="mt-3 text-sm text-slate-700" data-testid="daily-summary">
              {rangeWords(report)} (UTC days): <strong>{tracked.toLocaleString()} tracked</strong>,{' '}
              <strong>{reportedDays.length ? `${reported.toLocaleString()} reported` : 'none reported'}</strong>
              {reportedDays.length ? ` (on ${reportedDays.length} of ${shown.length} ${shown.length === 1 ? 'day' : 'days'})` : ''}
              {busiest && busiest.tracked ? `; the most tracked in a day: ${busiest.tracked.toLocaleString()} on ${formatDay(busiest.day)}` : ''}.
            </figcaption>
            <DaysTable days={shown} goal={flight.impression_goal} />
          </figure>
        )}
      </CardContent>
    </Card>
  );
}

/** The charts' numbers as a table: for screen readers, and for anyone who wants the figures. */
function DaysTable({ days, goal }: { days: FlightDay[]; goal: number | null }) {
  return (
    <details className="mt-3 text-sm">
      <summary className="cursor-pointer text-indigo-700 underline-offset-4 hover:underline">The numbers by day</summary>
      {/* Scrolls on its own: focusable, so a keyboard can scroll it too. */}
      <div
        className="mt-2 max-h-80 overflow-auto rounded-md border border-slate-200"
        tabIndex={0}
        role="region"
        aria-label="Impressions by day, scrollable"
      >
        <table className="w-full text-left tabular-nums" aria-label="Impressions by day">
          <thead className="sticky top-0 bg-slate-50 text-xs text-slate-600">
            <tr>
              <th scope="col" className="px-2 sm:px-3 py-2 font-medium">
                Day (UTC)
              </th>
              <th scope="col" className="px-2 sm:px-3 py-2 text-right font-medium">
                Tracked
              </th>
              <th scope="col" className="px-2 sm:px-3 py-2 text-right font-medium">
                Reported
              </th>
              {goal ? (
                <>
                  <th scope="col" className="px-2 sm:px-3 py-2 text-right font-medium">
                    Delivered to date
                  </th>
                  <th scope="col" className="px-2 sm:px-3 py-2 text-right font-medium">
                    Even delivery to date
                  </th>
                </>
              ) : null}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {days.map((d) => (
              <tr key={d.day}>
                <th scope="row" className="px-2 sm:px-3 py-1.5 font-normal whitespace-nowrap">
                  {formatDay(d.day)}
                </th>
                <td className="px-2 sm:px-3 py-1.5 text-right">{(d.tracked ?? 0).toLocaleString()}</td>
                <td className="px-2 sm:px-3 py-1.5 text-right">
                  {d.reported === null ? <span className="whitespace-nowrap text-slate-500">not reported</span> : d.reported.toLocaleString()}
                </td>
                {goal ? (
                  <>
                    <td className="px-2 sm:px-3 py-1.5 text-right">{(d.deliveredToDate ?? 0).toLocaleString()}</td>
                    <td className="px-2 sm:px-3 py-1.5 text-right">{(d.expectedToDate ?? 0).toLocaleString()}</td>
                  </>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

function PacingCard({ flight, series, error, onRetry }: { flight: Flight; series: FlightDay[] | undefined; error: unknown; onRetry: () => void }) {
  const captionId = useId();
  const goal = flight.impression_goal;
  return (
    <Card aria-labelledby="flight-pacing-title">
      <CardHeader>
        <div className="min-w-0 flex-[1_1_18rem]">
          <CardTitle id="flight-pacing-title">Pacing</CardTitle>
          <CardDescription>
            Tracked impressions delivered so far against an even delivery of the goal over the flight’s dates. Host reports are shown beside them, not
            added.
          </CardDescription>
        </div>
        {flight.pacing && <PacingBadge pacing={flight.pacing} />}
      </CardHeader>
      <CardContent>
        {!goal || !flight.pacing ? (
          <EmptyState
            icon={<Target className="size-6" />}
            title="No pacing: this flight has no impression goal"
            description="Pacing compares what was delivered with an even delivery of a goal over the flight’s dates. A flat fee without a goal has nothing to pace against; edit the flight to give it one."
          />
        ) : error ? (
          <ErrorState error={error} onRetry={onRetry} />
        ) : !series ? (
          <Skeleton className="h-64 w-full" />
        ) : (
          <figure aria-labelledby={captionId} data-testid="pacing-chart">
            <div className="h-64 w-full overflow-hidden">
              <PacingChart data={series} goal={goal} />
            </div>
            <figcaption id={captionId} className="mt-3 text-sm text-slate-700" data-testid="pacing-sentence">
              {pacingSentence(flight.pacing, goal)}
            </figcaption>
          </figure>
        )}
      </CardContent>
    </Card>
  );
}

function PodcastsCard({ flight, report }: { flight: Flight; report: Report }) {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const list = pagedList(
    useInfiniteQuery(
      trpc.reports.delivery.infiniteQueryOptions(
        { networkId, flight_id: flight.id, group_by: 'podcast', from: report?.from, to: report?.to, limit: 50 },
        { ...byCursor, enabled: report !== null },
      ),
    ),
  );
  const columns = useMemo<DataTableColumn<DeliveryRow>[]>(
    () => [
      {
        accessorKey: 'name',
        header: 'Podcast',
        cell: ({ row }) => <span className="font-medium text-slate-900">{row.original.name ?? row.original.key}</span>,
      },
      {
        accessorKey: 'tracked_impressions',
        header: 'Tracked',
        cell: ({ row }) => <span className="tabular-nums">{row.original.tracked_impressions.toLocaleString()}</span>,
      },
      {
        accessorKey: 'reported_impressions',
        header: 'Reported',
        cell: ({ row }) =>
          row.original.reported_impressions === null ? (
            <span className="text-slate-500">not reported</span>
          ) : (
            <span className="tabular-nums">{row.original.reported_impressions.toLocaleString()}</span>
          ),
      },
    ],
    [],
  );
  return (
    <Card aria-labelledby="flight-podcasts-title">
      <CardHeader>
        <div className="min-w-0 flex-[1_1_18rem]">
          <CardTitle id="flight-podcasts-title">By podcast</CardTitle>
          <CardDescription>Each podcast that accepted an offer on this flight{report ? `, ${rangeWords(report)} (UTC days)` : ''}.</CardDescription>
        </div>
        {report && (
          <ExportCsvButton
            size="sm"
            label="Export podcasts (CSV)"
            path={`/networks/${networkId}/reports/delivery`}
            params={{ group_by: 'podcast', flight_id: flight.id, from: report.from, to: report.to }}
          />
        )}
      </CardHeader>
      {report ? (
        <DataTable
          label="Delivery by podcast"
          className="rounded-none border-0 shadow-none"
          columns={columns}
          getRowId={(row) => row.key}
          {...pagedTable(list)}
          empty={
            <EmptyState
              icon={<Handshake className="size-6" />}
              title="Nothing delivered on a podcast yet"
              description="A podcast shows here once it has accepted an offer on this flight and delivery is tracked or reported."
            />
          }
        />
      ) : (
        <EmptyState title="The flight has not started" description="Its podcasts’ delivery shows here from its first day." />
      )}
    </Card>
  );
}

/** Every page of a report (its days fit a few pages): rows once all are in. */
function useWholeReport(
  input: { networkId: string; flight_id: string; group_by: 'day'; from: string | undefined; to: string | undefined },
  enabled: boolean,
) {
  const trpc = useTRPC();
  const query = useInfiniteQuery(trpc.reports.delivery.infiniteQueryOptions({ ...input, limit: 200 }, { ...byCursor, enabled }));
  const { hasNextPage, isFetchingNextPage, error, fetchNextPage } = query;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && !error) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, error, fetchNextPage]);
  return {
    rows: hasNextPage ? undefined : query.data?.pages.flatMap((page) => page.items),
    error,
    refetch: () => void query.refetch(),
  };
}

/**
 * The flight's days with both counts (days the report has no row for are 0 tracked, not reported),
 * the tracked impressions delivered to date, and what even delivery of the goal expects by each
 * day's end (`flightPacing`, the function the API paces with). Days after `to` are still to come.
 */
function flightSeries(flight: Flight, days: string[], rows: DeliveryRow[], to: string | null): FlightDay[] {
  const byDay = new Map(rows.map((row) => [row.key, row]));
  const goal = flight.impression_goal;
  const startsAt = new Date(flight.starts_at);
  const endsAt = new Date(flight.ends_at);
  let delivered = 0;
  return days.map((day) => {
    const row = byDay.get(day);
    const past = to !== null && day <= to;
    if (past) delivered += row?.tracked_impressions ?? 0;
    const endOfDay = Date.parse(`${day}T00:00:00Z`) + DAY_MS;
    return {
      day,
      label: formatDay(day, { tick: true }),
      tracked: past ? (row?.tracked_impressions ?? 0) : null,
      reported: past ? (row?.reported_impressions ?? null) : null,
      deliveredToDate: past ? delivered : null,
      expectedToDate: goal ? flightPacing({ goal, startsAt, endsAt, delivered: 0, now: endOfDay }).expectedToDate : null,
    };
  });
}
