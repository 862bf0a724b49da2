/**
 * `npm run bench`: the service against a bare node:http + postgres.js baseline
 * doing the same queries (scripts/bench/baseline.ts), side by side in one run,
 * plus memory and the postgres.js pool regression benchmark (pg-pool.ts).
 * Writes docs/PERFORMANCE.md. Not part of `npm test`.
 *
 * What it does:
 *  1. creates a fresh database `bench_<random>` on BENCH_PG_URL's server;
 *  2. starts the service as a user does (`node <flags> --import tsx scripts/start.ts`, which is
 *     what `npm start` runs, its flags from scripts/node-flags.ts, so the child's pid IS
 *     the server and its /proc/<pid>/status is the server's memory), with default logging
 *     sent to a temporary file, and the baseline next to it;
 *  3. seeds over the API: BENCH_NETWORKS networks via POST /v1/networks (super_user), then a
 *     person's key (administrator member of every network, a scope on each) with the project's
 *     own `mintApiKey`, then an advertiser in each network; checks that service and baseline answer
 *     identically (GETs), create the same campaign and both store its sealed response on the key;
 *  4. autocannon (programmatic) with that normal key (60 scopes): GET /v1/me, GET /v1/networks?limit=50
 *     and POST /v1/networks/{n}/campaigns (the networks in turn, a new Idempotency-Key per request via
 *     autocannon's `[<id>]` idReplacement); then with the super_user key: GET /v1/me,
 *     GET /v1/networks?limit=50 and POST /v1/networks (a new Idempotency-Key each); per target a
 *     warm-up per server, then BENCH_RUNS measured runs per server, alternating which goes first;
 *  5. RSS (VmRSS / VmHWM) idle and after load; server CPU time per request;
 *  5b. stops the baseline; offer list latency: in one network, an active campaign and an opted-in
 *     podcast over the API, then offers by one INSERT … SELECT generate_series (10 k, then grown to
 *     1 M), VACUUM ANALYZE + CHECKPOINT, and at each size GET …/offers?limit=50 first page and a deep
 *     page (a cursor, signed as the service signs it, naming the middle row), 1 connection;
 *  6. stops both servers; starts the service again (same database) with SYNTH_PROVIDER=http against
 *     a fake voice vendor and measures accept → creative ready minus the vendor's time
 *     (creative-overhead.ts), sequentially and at BENCH_CREATIVE_CONCURRENCY; stops it;
 *  7. starts the service again (same database) with WEBHOOK_ALLOW_PRIVATE=1 and runs the webhook
 *     fan-out benchmark (webhook-fanout.ts: signed deliveries/s in a burst, event → receipt latency
 *     at a steady event rate, to a signature-verifying node:http receiver); stops it;
 *  7a. starts it again for the fairness benchmark (scenarios/webhook-fairness.ts: healthy endpoints
 *     at BENCH_FAIR_RATE events/s while another endpoint hangs with BENCH_FAIR_QUEUED queued); stops it;
 *  7b. starts the service again (same database) for the soak: a warm-up, then a steady mixed load
 *     (GET /me, GET /networks, POST campaigns with Idempotency-Key) at BENCH_SOAK_RATE req/s for
 *     BENCH_SOAK_SECONDS, RSS sampled every BENCH_SOAK_SAMPLE_SECONDS; stops it;
 *  7c. starts it again (same database, the default rate limits) for the noisy neighbour
 *     (scenarios/noisy-neighbour.ts: network B's /v1/me, preview, accept → creative ready and
 *     offer.accepted delivery, alone and while network A floods previews, sends huge console
 *     batches, spreads requests over freshly minted keys, or hangs many endpoints); stops it;
 *  7d. starts it again (same database, TRUSTED_PROXIES=loopback) beside the tracking baseline
 *     (scenarios/tracking.ts: `GET /t/{token}` of accepted offers against a bare node:http + postgres
 *     group-commit server, alternating, with `GET /v1/me` timed meanwhile); stops both;
 *  7e. starts it again (same database) for the delivery report as data grows
 *     (scenarios/delivery-report-scale.ts: one flight over 30 days with 10 k, then 10 M hits seeded
 *     by SQL into tracking_hits' day partitions and the rollups); stops it;
 *  8. runs the pg-pool benchmark, writes the report;
 *  9. always (finally, and on Ctrl-C): stops the servers and drops the database.
 *
 * Environment (all optional):
 *   BENCH_QUICK=1         smoke mode: 3 s runs, 1 run, 1 s warm-up, 5 s pool benchmark, 10 creatives
 *                         per creative run, 1 k / 100 k offers, a 20 s soak after 5 s warm-up, and the
 *                         report is NOT written unless BENCH_REPORT names a file
 *   BENCH_DURATION=10     seconds per measured run          BENCH_RUNS=3       runs per server and target
 *   BENCH_WARMUP=5        warm-up seconds per server/target BENCH_CONNECTIONS=32
 *   BENCH_POOL_SECONDS=20 pg-pool benchmark length          BENCH_NETWORKS=60
 *   BENCH_CREATIVES=40    offers accepted per creative run  BENCH_CREATIVE_CONCURRENCY=5
 *   BENCH_VENDOR_DELAY_MS=200  the fake voice vendor's fixed synthesis time (0 is allowed)
 *   BENCH_FANOUT_EVENTS=500 BENCH_FANOUT_SUBSCRIPTIONS=10 BENCH_FANOUT_RUNS=3   webhook burst: events × subscriptions, runs
 *   BENCH_FANOUT_RATE=100 BENCH_FANOUT_SECONDS=20 BENCH_FANOUT_STEADY_RUNS=3     webhook steady-rate latency runs
 *   BENCH_FANOUT=0        skip the webhook fan-out benchmark
 *   BENCH_FAIR_QUEUED=1000 BENCH_FAIR_RATE=100 BENCH_FAIR_SECONDS=30 BENCH_FAIR_HEALTHY=5   webhook fairness: queued for the hanging endpoint, healthy rate
 *   BENCH_FAIRNESS=0      skip the webhook fairness benchmark
 *   BENCH_NOISY_SECONDS=10 BENCH_NOISY_ME_RATE=100 BENCH_NOISY_ROUNDS=3  noisy neighbour: B measured per phase
 *                     (in rounds, each alone then attacked), B's /v1/me rate
 *   BENCH_NOISY_PREVIEWS=150 BENCH_NOISY_BATCHES=10 BENCH_NOISY_BATCH_CALLS=2000 BENCH_NOISY_KEYS=20
 *   BENCH_NOISY_HOOKS=40 BENCH_NOISY_HOOK_EVENTS=5  what network A does in each phase
 *   BENCH_NOISY_ATTACKER_NICE=19  the attacker's CPU priority (19: a client on another machine; 0: this machine's own)
 *   BENCH_NOISY_ATTACKS=previews,hanging  run only these of A's attacks (default: all four)
 *   BENCH_NOISY_TRACE=/tmp/b.jsonl  write each of B's /v1/me samples (phase, round, alone or attacked, when, ms)
 *   BENCH_NOISY_SYNTH=local,http  the voice providers it runs with, one service each (http: the fake vendor)
 *   BENCH_NOISY=0         skip the noisy neighbour benchmark
 *   BENCH_TRACKING_SECONDS=10 BENCH_TRACKING_CONNECTIONS=100 BENCH_TRACKING_ME_RATE=50   tracking: per run
 *                     (BENCH_RUNS runs per server), hits' connections, /v1/me rate meanwhile
 *   BENCH_TRACKING_NETWORKS=2 BENCH_TRACKING_OFFERS=2   networks, and accepted offers in each, whose URLs are hit
 *   BENCH_TRACKING=0      skip the tracking benchmark
 *   BENCH_TRACKING_HITS_SMALL=10000 BENCH_TRACKING_HITS_LARGE=10000000  hits stored for the delivery report
 *                         (quick: 10 k / 1 M; target: large/small p50 ≤ 1.5)
 *   BENCH_DELIVERY_SECONDS=5  per delivery report run (BENCH_RUNS runs per size, 1 connection)
 *   BENCH_DELIVERY_REPORTS=0  skip the delivery report benchmark
 *   BENCH_OFFERS_SMALL=10000 BENCH_OFFERS_LARGE=1000000   offer list sizes (target: large/small p50 ≤ 1.2)
 *   BENCH_LIST_SECONDS=5  BENCH_LIST_CONNECTIONS=1        per list run (BENCH_RUNS runs per page and size)
 *   BENCH_LISTS=0         skip the offer list benchmark
 *   BENCH_SOAK_SECONDS=600 BENCH_SOAK_WARMUP=60 BENCH_SOAK_RATE=200 BENCH_SOAK_CONNECTIONS=8
 *   BENCH_SOAK_SAMPLE_SECONDS=10                          soak: measured length, warm-up, req/s, RSS sampling
 *   BENCH_SOAK=0          skip the soak
 *   BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/postgres  server + admin database
 *   BENCH_REPORT=docs/PERFORMANCE.md   where to write the report ("-" = nowhere)
 *   BENCH_KEEP_LOGS=1     keep the servers' log files (always kept when the run fails)
 *   BENCH_START_TIMEOUT=900  seconds to wait for the service (a first start may run `next build`)
 *
 * For investigations (any of these set → no report is written unless BENCH_REPORT names a file):
 *   BENCH_TARGETS=me,networks           which targets to run (me, networks, campaigns; me-su, networks-su, networks-post-su)
 *   BENCH_SERVICE_ENV="LOG_LEVEL=silent"  extra environment for the service (space-separated K=V)
 *   BENCH_SERVICE_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof"  extra node flags for the service
 *   BENCH_BASELINE_NODE_ARGS="--trace-gc-nvp"                      extra node flags for the baseline
 *   BENCH_BASELINE_PREPARE=0            baseline without prepared statements (as Drizzle queries run)
 *   BENCH_POOL_MAX=10                   database pool size of both servers
 *   BENCH_SYNCHRONOUS_COMMIT=off        commits of both servers do not wait for the WAL's fsync (keyed
 *                                       POSTs' tails without the disk's: docs/PERFORMANCE.md, "Notes:
 *                                       where the service's time goes")
 *
 * Layout of scripts/bench/ (this file only composes the steps above, in order):
 *   settings.ts      every BENCH_* variable above, read once
 *   services.ts      starting and stopping the service and the baseline (child processes, logs)
 *   seed.ts          step 3's data: networks, the person's key, advertisers
 *   load.ts          autocannon with every latency recorded, and the CPU/RSS accounting of a run
 *   scenarios/       the measurements written for this run, one file each, with their report section:
 *     throughput.ts    steps 3–5: same-answer checks, service vs baseline per target, summaries
 *     offer-lists.ts   step 5b       soak.ts   step 7b       pool.ts   step 8 (around pg-pool.ts)
 *     webhook-fairness.ts step 7a     noisy-neighbour.ts step 7c (both also run alone)
 *     tracking.ts step 7d             delivery-report-scale.ts step 7e (both also run alone)
 *   report.ts        docs/PERFORMANCE.md: verdicts, machine, setup, results, memory, the scenarios'
 *                    sections, reproduce; keeps everything below REPORT_MARKER
 *   api.ts, proc.ts, stats.ts, format.ts   HTTP calls, /proc readings, median/percentile, number formats
 *   profile-summary.ts  a `--cpu-prof` profile of the service (BENCH_SERVICE_NODE_ARGS) by package and function
 *   Beside them, modules the report's section titles name, kept at their paths:
 *   baseline.ts (the bare server, its own process), tracking-baseline.ts (step 7d's), creative-overhead.ts (step 6),
 *   webhook-fanout.ts (step 7; also runs alone) and pg-pool.ts (also runs alone).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { creativeLogLine, measureCreativeOverhead, CREATIVE_WARMUP, renderCreativeSection, startFakeVendor } from '@/scripts/bench/creative-overhead';
import { log } from '@/scripts/bench/format';
import { loadAverage, procChildren, procCommand, procMemory } from '@/scripts/bench/proc';
import { describeEnvironment, renderReport, writeReport, type MemoryReport } from '@/scripts/bench/report';
import { listLogLine, listVerdicts, renderListSection, runOfferLists, summarizeLists } from '@/scripts/bench/scenarios/offer-lists';
import { renderPoolSection, runPool } from '@/scripts/bench/scenarios/pool';
import { renderSoakSection, runSoak, soakLogLine, soakVerdictRow } from '@/scripts/bench/scenarios/soak';
import {
  checkSameAnswers,
  checkSameCampaign,
  checkSameNetwork,
  runThroughput,
  summarize,
  summaryLogLine,
} from '@/scripts/bench/scenarios/throughput';
import { databaseUrl, seed } from '@/scripts/bench/seed';
import { Processes, serviceEnvironment } from '@/scripts/bench/services';
import {
  deliveryReports as deliverySettings,
  investigation,
  noisy,
  POOL_MAX,
  quick,
  root,
  settings,
  soak as soakSettings,
  tracking as trackingSettings,
} from '@/scripts/bench/settings';
import { SERVICE_STATEMENTS } from '@/scripts/bench/service-statements';
import { burstLogLine, fanoutSettings, fanoutVerdict, renderWebhookSection, runWebhookFanout, steadyLogLine } from '@/scripts/bench/webhook-fanout';
import { fairnessLogLine, fairnessSettings, renderFairnessSection, runWebhookFairness } from '@/scripts/bench/scenarios/webhook-fairness';
import { noisyLogLine, renderNoisySection, runNoisyNeighbour, withNoisyService, type NoisyResult } from '@/scripts/bench/scenarios/noisy-neighbour';
import {
  renderTrackingSection,
  runTracking,
  startTrackingBaseline,
  TRACKING_SERVICE_ENV,
  summarizeTracking,
  trackingLogLine,
  trackingVerdicts,
} from '@/scripts/bench/scenarios/tracking';
import {
  deliveryReportLogLine,
  deliveryReportVerdicts,
  renderDeliveryReportSection,
  runDeliveryReports,
  summarizeDeliveryReports,
} from '@/scripts/bench/scenarios/delivery-report-scale';
import { generateApiKeyToken } from '@/server/auth/tokens';

/** A step after the first: its result, or why there is none (skipped, or the error it failed with). */
type Outcome<T> = { result: T; error?: undefined } | { result?: undefined; error: string };

async function main(): Promise<void> {
  const loadBefore = loadAverage();
  if (os.loadavg()[0]! > os.cpus().length * 0.5) log(`warning: the machine is busy (load average ${loadBefore}); results will be noisy`);
  log(
    `${quick ? 'QUICK' : 'full'} mode: ${settings.runs} × ${settings.duration} s per server and target, warm-up ${settings.warmup} s, ` +
      `${settings.connections} connections, pool benchmark ${settings.poolSeconds} s; report: ${settings.report ?? '(none)'}`,
  );
  const dbName = `bench_${randomBytes(6).toString('hex')}`;
  const dbUrl = databaseUrl(settings.pgUrl, dbName);
  const logDir = mkdtempSync(path.join(os.tmpdir(), 'ad-bench-'));
  const admin = postgres(settings.pgUrl, { max: 1, onnotice: () => {} });
  const processes = new Processes(logDir);
  let benchDb: postgres.Sql | undefined;
  let databaseCreated = false;
  let failed = true;

  let cleaning: Promise<void> | undefined;
  const cleanup = () =>
    (cleaning ??= (async () => {
      await processes.stopAll();
      await benchDb?.end({ timeout: 5 }).catch(() => undefined);
      if (databaseCreated) {
        try {
          await admin.unsafe(`drop database if exists "${dbName}" with (force)`);
          log(`dropped database ${dbName}`);
        } catch (error) {
          log(`could not drop database ${dbName}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      await admin.end({ timeout: 5 }).catch(() => undefined);
      if (failed || settings.keepLogs) log(`server logs kept in ${logDir}`);
      else rmSync(logDir, { recursive: true, force: true });
    })());
  // `on`, not `once`: Ctrl-C under `npm run`/tsx delivers SIGINT twice (terminal + the tsx
  // wrapper relaying it), and a second default-handled signal would kill us mid-cleanup.
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) return;
    interrupted = true;
    log(`${signal}: cleaning up`);
    void cleanup().finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  /** Runs one step; a failure is logged, stops every server and becomes the step's `error`. */
  const step = async <T>(name: string, run: () => Promise<T>): Promise<Outcome<T>> => {
    try {
      return { result: await run() };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log(`${name} failed: ${message}`);
      await processes.stopAll();
      return { error: message };
    }
  };

  try {
    const [{ version: pgVersion }] = (await admin`select version()`) as unknown as [{ version: string }];
    await admin.unsafe(`create database "${dbName}"`);
    databaseCreated = true;
    log(`created database ${dbName}`);
    if (investigation.synchronousCommit) {
      // Before either server connects: every session of both takes the database's setting.
      await admin.unsafe(`alter database "${dbName}" set synchronous_commit = ${investigation.synchronousCommit}`);
      log(`synchronous_commit = ${investigation.synchronousCommit} on ${dbName}, for both servers`);
    }

    // 2–3. The service, the data, the baseline.
    const superToken = generateApiKeyToken('test');
    const serviceEnv = serviceEnvironment(dbUrl, superToken, investigation.serviceEnv);
    /** A fresh start of the service on the same database, `extraEnv` added. */
    const startService = (name: string, what: string, extraEnv: Record<string, string> = {}, note?: string) =>
      processes.start(
        name,
        'scripts/start.ts',
        { ...serviceEnv, ...extraEnv },
        {
          what,
          note,
          readyToken: superToken,
          timeoutMs: settings.startTimeoutMs,
          nodeArgs: investigation.serviceNodeArgs,
        },
      );
    const service = await startService('service', 'the service', {}, 'a first start may build the console');
    const seeded = await seed({ baseUrl: service.url, token: superToken }, dbUrl, settings.networks);
    const { token, networkIds, advertiserIds } = seeded;
    log(`seeded ${networkIds.length} networks, a person key scoped to all of them and an advertiser in each`);
    benchDb = postgres(dbUrl, { max: 2, onnotice: () => {} });
    const db = benchDb;
    const baseline = await processes.start(
      'baseline',
      'scripts/bench/baseline.ts',
      {
        ...process.env,
        NODE_ENV: 'production',
        DATABASE_URL: dbUrl,
        DATABASE_POOL_MAX: String(POOL_MAX),
        HOST: '127.0.0.1',
        PREPARE: investigation.baselinePrepare ? '1' : '0',
        // The service's own hot statements: the baseline runs the same SQL without loading the service's modules.
        BENCH_STATEMENTS: JSON.stringify(SERVICE_STATEMENTS),
      },
      { what: 'the baseline', readyToken: token, timeoutMs: 60_000, nodeArgs: investigation.baselineNodeArgs },
    );
    await checkSameAnswers(service, baseline, token, settings.networks);
    await checkSameAnswers(service, baseline, superToken, 0, settings.networks);
    await checkSameCampaign(service, baseline, token, networkIds[0]!, advertiserIds[0]!, db);
    await checkSameNetwork(service, baseline, superToken, db);
    log('service and baseline give the same answers');

    // 4–5. Service against baseline, and their memory.
    await sleep(2_000);
    const memory: MemoryReport = {
      idle: { service: procMemory(service.pid), baseline: procMemory(baseline.pid) },
      after: { service: undefined, baseline: undefined },
      maxDuringKiB: { service: 0, baseline: 0 },
      serviceProcess: procCommand(service.pid).replace(root, '.'),
      serviceChildren: procChildren(service.pid).map((pid) => `${pid} ${procCommand(pid).replace(root, '.')}`),
    };
    const runs = await runThroughput({ service, baseline }, seeded, (r) => {
      memory.maxDuringKiB[r.server] = Math.max(memory.maxDuringKiB[r.server], r.rssAfterKiB);
    });
    memory.after = { service: procMemory(service.pid), baseline: procMemory(baseline.pid) };
    const summaries = summarize(runs);

    // 5b. Offer list latency, on the service alone.
    let lists: Outcome<Awaited<ReturnType<typeof runOfferLists>>> = { error: 'skipped (BENCH_LISTS=0)' };
    if (settings.lists) {
      await sleep(1_000); // autocannon does not wait for its last in-flight requests; let the baseline answer them
      await processes.stop(baseline);
      const networks = [0, 1].map((i) => ({ networkId: networkIds[i]!, advertiserId: advertiserIds[i]! }));
      lists = await step('offer list benchmark', () => runOfferLists(service, token, db, networks, serviceEnv.APP_SECRET_KEY || undefined));
    }
    log('stopping the servers before the pool benchmark');
    await processes.stopEach();

    // 6. Creative generation overhead, against a fake voice vendor.
    const workerConcurrency = serviceEnv.WORKER_CONCURRENCY ?? '20 (default)';
    const creatives = await step('creative benchmark', async () => {
      const vendor = await startFakeVendor(settings.vendorDelayMs);
      try {
        const synthEnv = {
          SYNTH_PROVIDER: 'http',
          SYNTH_TEST_NETWORKS: 'provider',
          SYNTH_BASE_URL: vendor.url,
          SYNTH_API_KEY: 'bench',
          SYNTH_MAX_RETRIES: '0',
        };
        const note = `fake vendor ${vendor.url}, ${settings.vendorDelayMs} ms`;
        const child = await startService('service-creatives', 'the service with SYNTH_PROVIDER=http', synthEnv, note);
        const summaries = await measureCreativeOverhead(
          { baseUrl: child.url, token: superToken },
          vendor,
          settings.creatives,
          settings.creativeConcurrency,
        );
        await processes.stop(child);
        return summaries;
      } finally {
        await vendor.close().catch(() => undefined);
      }
    });

    // 7. Webhook fan-out.
    const fanout = settings.fanout
      ? await step('webhook fan-out benchmark', async () => {
          const child = await startService('service-webhooks', 'the service with WEBHOOK_ALLOW_PRIVATE=1 for the webhook fan-out benchmark', {
            WEBHOOK_ALLOW_PRIVATE: '1',
          });
          const result = await runWebhookFanout({ baseUrl: child.url, token: superToken }, dbUrl, child.pid, fanoutSettings(quick), {
            workerConcurrency,
            log,
          });
          await processes.stop(child);
          return result;
        })
      : { error: 'skipped (BENCH_FANOUT=0)' };

    // 7a. Fair delivery: healthy endpoints at a steady rate while another hangs with deliveries queued.
    const fairness = settings.fairness
      ? await step('webhook fairness benchmark', async () => {
          const child = await startService('service-fairness', 'the service with WEBHOOK_ALLOW_PRIVATE=1 for the webhook fairness benchmark', {
            WEBHOOK_ALLOW_PRIVATE: '1',
          });
          const result = await runWebhookFairness({ baseUrl: child.url, token: superToken }, dbUrl, fairnessSettings(quick), { log });
          await processes.stop(child);
          return result;
        })
      : { error: 'skipped (BENCH_FAIRNESS=0)' };

    // 7b. Memory over a soak.
    const soak = soakSettings.enabled
      ? await step('soak', async () => {
          const child = await startService('service-soak', 'the service for the soak');
          const result = await runSoak(child, seeded);
          log(soakLogLine(result));
          await processes.stop(child);
          return result;
        })
      : { error: 'skipped (BENCH_SOAK=0)' };

    // 7c. Noisy neighbour: network B's latencies alone and while network A attacks.
    const noisyNeighbour = noisy.enabled
      ? await step('noisy neighbour benchmark', async () => {
          const results: NoisyResult[] = [];
          for (const synth of noisy.synth) {
            const { service, close } = await withNoisyService(synth, settings.vendorDelayMs, (env, what) =>
              startService(
                `service-noisy-${synth}`,
                `the service (${what}) with WEBHOOK_ALLOW_PRIVATE=1 and default rate limits for the noisy neighbour benchmark`,
                env,
              ),
            );
            try {
              results.push(await runNoisyNeighbour({ baseUrl: service.url, token: superToken }, noisy, synth, { log }));
            } finally {
              await processes.stop(service);
              await close();
            }
          }
          return results;
        })
      : { error: 'skipped (BENCH_NOISY=0)' };

    // 7d. Tracking hits: the service's tracking URL beside a bare group-commit baseline, /v1/me timed meanwhile.
    const trackingRun = trackingSettings.enabled
      ? await step('tracking benchmark', async () => {
          const child = await startService(
            'service-tracking',
            'the service with TRUSTED_PROXIES=loopback for the tracking benchmark',
            TRACKING_SERVICE_ENV,
          );
          const trackingBaseline = await startTrackingBaseline(processes, dbUrl);
          const result = await runTracking(
            { service: child, baseline: trackingBaseline },
            { baseUrl: child.url, token: superToken },
            dbUrl,
            trackingSettings,
            {
              log,
            },
          );
          await processes.stop(trackingBaseline);
          await processes.stop(child);
          return result;
        })
      : { error: 'skipped (BENCH_TRACKING=0)' };

    // 7e. The delivery report of one flight as the stored hits grow.
    const delivery = deliverySettings.enabled
      ? await step('delivery report benchmark', async () => {
          const child = await startService('service-delivery', 'the service for the delivery report benchmark');
          const result = await runDeliveryReports(child, { baseUrl: child.url, token: superToken }, dbUrl, deliverySettings, { log });
          await processes.stop(child);
          return result;
        })
      : { error: 'skipped (BENCH_DELIVERY_REPORTS=0)' };

    // 8. The pool benchmark, then the summary and the report.
    const pool = await step('pool benchmark', () => runPool(dbUrl));

    for (const s of summaries) log(summaryLogLine(s));
    if (lists.result) for (const l of summarizeLists(lists.result)) log(listLogLine(l));
    if (soak.result) log(soakLogLine(soak.result));
    for (const c of creatives.result ?? []) log(creativeLogLine(c));
    if (fanout.result) {
      for (const b of fanout.result.burst) log(burstLogLine(b));
      for (const st of fanout.result.steady) log(steadyLogLine(st));
      const v = fanoutVerdict(fanout.result);
      log(
        `fan-out: burst median ${Math.round(v.throughput)}/s (${v.throughputMet ? 'met' : 'MISSED'}), steady median p99 ${v.p99.toFixed(1)} ms (${v.p99Met ? 'met' : 'MISSED'})`,
      );
    }
    if (fairness.result) log(fairnessLogLine(fairness.result));
    for (const result of noisyNeighbour.result ?? []) log(noisyLogLine(result));
    if (trackingRun.result) log(trackingLogLine(trackingRun.result));
    if (delivery.result) log(deliveryReportLogLine(delivery.result));
    if (settings.report) {
      const environment = describeEnvironment(pgVersion, loadBefore);
      const measured = {
        command: environment.command,
        date: environment.date,
        machine: `${environment.cores} × ${environment.cpu}, Node ${environment.node}`,
      };
      const sections = [
        ...renderListSection(lists.result, lists.error),
        ...renderSoakSection(soak.result, soak.error),
        ...renderPoolSection(pool.result, pool.error),
        ...renderCreativeSection(creatives.result ?? [], {
          vendorDelayMs: settings.vendorDelayMs,
          warmup: CREATIVE_WARMUP,
          error: creatives.error,
          workerConcurrency,
        }),
        ...renderWebhookSection(fanout.result, { error: fanout.error, ...measured }),
        ...renderFairnessSection(fairness.result, { error: fairness.error, ...measured }),
        ...renderNoisySection(noisyNeighbour.result, { error: noisyNeighbour.error, ...measured, vendorDelayMs: settings.vendorDelayMs }),
        ...renderTrackingSection(trackingRun.result, { error: trackingRun.error, ...measured }),
        ...renderDeliveryReportSection(delivery.result, { error: delivery.error, ...measured }),
      ];
      const others = [
        ...listVerdicts(lists.result, lists.error),
        soakVerdictRow(soak.result, soak.error),
        ...trackingVerdicts(trackingRun.result, trackingRun.error),
        ...deliveryReportVerdicts(delivery.result, delivery.error),
      ];
      writeReport(settings.report, renderReport(environment, runs, summaries, memory, others, sections));
      log(`wrote ${path.relative(process.cwd(), settings.report) || settings.report}`);
    }
    failed =
      !summaries.every((s) => s.valid) ||
      creatives.error !== undefined ||
      (fanout.error !== undefined && settings.fanout) ||
      (fairness.error !== undefined && settings.fairness) ||
      (noisyNeighbour.error !== undefined && noisy.enabled) ||
      (trackingRun.error !== undefined && trackingSettings.enabled) ||
      (trackingRun.result !== undefined && !summarizeTracking(trackingRun.result).valid) ||
      (delivery.error !== undefined && deliverySettings.enabled) ||
      (delivery.result !== undefined && !summarizeDeliveryReports(delivery.result).valid) ||
      (lists.error !== undefined && settings.lists) ||
      (lists.result !== undefined && !summarizeLists(lists.result).every((l) => l.valid)) ||
      (soak.error !== undefined && soakSettings.enabled) ||
      (soak.result !== undefined && soak.result.failures > 0);
    if (failed) process.exitCode = 1;
  } finally {
    await cleanup();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
