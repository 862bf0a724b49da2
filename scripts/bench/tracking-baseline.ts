/**
 * The tracking benchmark's baseline (scenarios/tracking.ts): a bare `node:http` + postgres.js
 * server answering `GET /t/{token}` with the same durable write as the service's tracking path, and
 * nothing else — group commit (a hit waits at most FLUSH_MS for others, a batch is written at once
 * when it has FLUSH_HITS, at most POOL_MAX batches at a time, each on a connection of a pool of
 * POOL_MAX), every batch ONE transaction: a multi-row `INSERT … SELECT FROM unnest(…)` into
 * `baseline_tracking_hits` (shaped like `tracking_hits`: its columns, check and indexes, partitioned
 * by day alike) and the daily rollup upsert into `baseline_tracking_daily` (shaped like
 * `tracking_daily`); a hit is answered 204 only once its batch has committed. Tokens are looked up
 * in `offers` once (cached), the source address (X-Forwarded-For's last entry, as the service reads
 * it behind a trusted proxy) is kept as an HMAC with a salt of the process, like the user agent +
 * episode's dedupe key. What it leaves out is the counting itself: no dedupe lookup, no per-source
 * daily counts, no bot list, no partition locks — every hit is written as `counted`.
 *
 *   DATABASE_URL=postgres://… PORT=3232 npx tsx scripts/bench/tracking-baseline.ts
 *
 * Settings (environment): FLUSH_MS (5), FLUSH_HITS (500), POOL_MAX (2) — the service's defaults of
 * TRACKING_FLUSH_MS, TRACKING_FLUSH_HITS and TRACKING_DATABASE_POOL_MAX. Answers `GET /v1/me` with
 * 200 (the benchmark's readiness check). Prints `tracking baseline ready on …` once listening.
 * Loads none of the service's modules.
 */
import { createHmac, createSecretKey, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import postgres from 'postgres';

const url = process.env.DATABASE_URL;
if (!url) {
  process.stderr.write('DATABASE_URL is required\n');
  process.exit(1);
}
const port = Number(process.env.PORT ?? 0);
const host = process.env.HOST ?? '127.0.0.1';
const flushMs = Number(process.env.FLUSH_MS ?? 5);
const flushHits = Number(process.env.FLUSH_HITS ?? 500);
const poolMax = Number(process.env.POOL_MAX ?? 2);

const sql = postgres(url, { max: poolMax, onnotice: () => {}, connection: { application_name: 'bench-tracking-baseline' } });

const DAY_MS = 86_400_000;
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Its tables, shaped like the service's, and their day partitions from yesterday to 3 days ahead. */
async function prepareTables(): Promise<void> {
  await sql.unsafe(`
    create table if not exists baseline_tracking_hits (like tracking_hits including defaults including constraints) partition by range (received_at);
    create index if not exists baseline_tracking_hits_dedupe_idx on baseline_tracking_hits (network_id, offer_id, dedupe_key, received_at) where outcome = 'counted';
    create index if not exists baseline_tracking_hits_source_idx on baseline_tracking_hits (network_id, source_hash, received_at);
    create table if not exists baseline_tracking_daily (like tracking_daily including all);`);
  for (let i = -1; i <= 3; i++) {
    const day = utcDay(Date.now() + i * DAY_MS);
    await sql.unsafe(
      `create table if not exists baseline_tracking_hits_p${day.replaceAll('-', '')} partition of baseline_tracking_hits
         for values from ('${day}T00:00:00Z') to ('${utcDay(Date.parse(day) + DAY_MS)}T00:00:00Z')`,
    );
  }
}

interface Hit {
  token: string;
  receivedAt: number;
  source: string;
  userAgent: string;
  episode: string | null;
  requestId: string | null;
  done: (kept: boolean) => void;
}

const tokens = new Map<string, { networkId: string; offerId: string } | null>();
const salt = createSecretKey(randomBytes(32));
const keyed = (text: string) => createHmac('sha256', salt).update(text).digest('hex').slice(0, 32);

let waiting: Hit[] = [];
let flushes = 0;
let timer: NodeJS.Timeout | undefined;

function schedule(): void {
  if (waiting.length === 0 || flushes >= poolMax) return;
  if (waiting.length >= flushHits) return flush();
  timer ??= setTimeout(() => {
    timer = undefined;
    flush();
  }, flushMs);
}

function flush(): void {
  if (timer) {
    clearTimeout(timer);
    timer = undefined;
  }
  if (waiting.length === 0 || flushes >= poolMax) return;
  const batch = waiting.slice(0, flushHits);
  waiting = waiting.slice(flushHits);
  flushes++;
  void write(batch)
    .then(
      () => true,
      (error: unknown) => {
        process.stderr.write(`batch failed: ${error instanceof Error ? error.message : String(error)}\n`);
        return false;
      },
    )
    .then((kept) => {
      flushes--;
      for (const hit of batch) hit.done(kept);
      if (waiting.length > 0) flush();
    });
}

async function write(batch: Hit[]): Promise<void> {
  const unknown = [...new Set(batch.map((h) => h.token))].filter((t) => !tokens.has(t));
  if (unknown.length > 0) {
    const rows = await sql<Array<{ token: string; networkId: string; offerId: string }>>`
      select tracking_token as token, network_id as "networkId", id as "offerId" from offers where tracking_token = any(${unknown}::text[])`;
    for (const t of unknown) {
      const row = rows.find((r) => r.token === t);
      tokens.set(t, row ? { networkId: row.networkId, offerId: row.offerId } : null);
    }
  }
  const rows = batch.flatMap((hit) => {
    const offer = tokens.get(hit.token);
    return offer ? [{ hit, ...offer, day: utcDay(hit.receivedAt) }] : [];
  });
  if (rows.length === 0) return;
  const rollups = new Map<string, { networkId: string; offerId: string; day: string; hits: number }>();
  for (const r of rows) {
    const id = `${r.networkId} ${r.offerId} ${r.day}`;
    const rollup = rollups.get(id) ?? { networkId: r.networkId, offerId: r.offerId, day: r.day, hits: 0 };
    rollup.hits++;
    rollups.set(id, rollup);
  }
  const sums = [...rollups.values()];
  await sql.begin(async (tx) => {
    await Promise.all([
      tx`
        insert into baseline_tracking_hits (network_id, offer_id, received_at, episode, request_id, user_agent, source_hash, dedupe_key, outcome)
        select n, o, r::timestamptz, e, q, a, decode(sh, 'hex'), decode(k, 'hex'), 'counted'
          from unnest(${rows.map((r) => r.networkId)}::text[], ${rows.map((r) => r.offerId)}::text[],
                      ${rows.map((r) => new Date(r.hit.receivedAt).toISOString())}::text[], ${rows.map((r) => r.hit.episode)}::text[],
                      ${rows.map((r) => r.hit.requestId)}::text[], ${rows.map((r) => r.hit.userAgent)}::text[],
                      ${rows.map((r) => keyed(`source\n${r.hit.source}`))}::text[],
                      ${rows.map((r) => keyed(`impression\n${r.hit.source}\n${r.hit.userAgent}\n${r.hit.episode ?? ''}`))}::text[])
            as u(n, o, r, e, q, a, sh, k)`,
      tx`
        insert into baseline_tracking_daily (network_id, offer_id, day, hits, impressions)
        select n, o, d::date, c, c
          from unnest(${sums.map((x) => x.networkId)}::text[], ${sums.map((x) => x.offerId)}::text[], ${sums.map((x) => x.day)}::text[],
                      ${sums.map((x) => x.hits)}::int8[]) as u(n, o, d, c)
         order by n, o, d
        on conflict (network_id, offer_id, day) do update
           set hits = baseline_tracking_daily.hits + excluded.hits, impressions = baseline_tracking_daily.impressions + excluded.impressions`,
    ]);
  });
}

/** The client: X-Forwarded-For's last entry (the service, behind a proxy it trusts, reads it so), else the socket's. */
function sourceOf(req: IncomingMessage): string {
  const forwarded = req.headers['x-forwarded-for'];
  if (typeof forwarded === 'string' && forwarded) return forwarded.slice(forwarded.lastIndexOf(',') + 1).trim();
  return req.socket.remoteAddress ?? '';
}

const NO_CONTENT = { 'Cache-Control': 'no-store, no-cache, must-revalidate, private', 'X-Content-Type-Options': 'nosniff' };

function handle(req: IncomingMessage, res: ServerResponse): void {
  const target = req.url ?? '/';
  if (target === '/v1/me') {
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    return;
  }
  if (!target.startsWith('/t/') || (req.method !== 'GET' && req.method !== 'HEAD')) {
    res.writeHead(404, { 'Content-Length': '0' }).end();
    return;
  }
  const queryAt = target.indexOf('?');
  const query = new URLSearchParams(queryAt === -1 ? '' : target.slice(queryAt + 1));
  waiting.push({
    token: target.slice(3, queryAt === -1 ? undefined : queryAt),
    receivedAt: Date.now(),
    source: sourceOf(req),
    userAgent: (req.headers['user-agent'] ?? '').slice(0, 512),
    episode: query.get('episode'),
    requestId: query.get('rid'),
    done: (kept) => {
      if (res.destroyed) return;
      if (kept) res.writeHead(204, NO_CONTENT).end();
      else res.writeHead(503, { 'Retry-After': '1', 'Content-Length': '0' }).end();
    },
  });
  schedule();
}

await prepareTables();
const server = createServer(handle);
server.keepAliveTimeout = 65_000;
server.listen(port, host, () => {
  const { port: actual } = server.address() as AddressInfo;
  process.stdout.write(`tracking baseline ready on http://${host}:${actual}\n`);
});
const stop = () => {
  server.closeAllConnections();
  server.close(() => void sql.end({ timeout: 5 }).finally(() => process.exit(0)));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
