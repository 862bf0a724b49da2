/**
 * The benchmark's baseline: a bare `node:http` + postgres.js (the same patched
 * package and pool size as the service) server that does the SAME database
 * work per request as the service's `/v1` handlers, and nothing else — no
 * tRPC, no zod, no OpenAPI adapter, no request log, no rate limiter.
 *
 *   DATABASE_URL=postgres://… PORT=3231 npx tsx scripts/bench/baseline.ts
 *
 * Every statement on its requests' path is the service's own, as Postgres receives it
 * (service-statements.ts); only the `last_used_at` touch, at most once a minute per key and off
 * that path in both, is written here (the service's goes through Drizzle's query builder).
 *
 * Routes (Authorization: Bearer <API key> on all):
 *   GET /v1/me                 the key lookup, then {key_id, key_name, super_user, session, mode, expires_at, scopes, owner}
 *   GET /v1/networks?limit=N   the key lookup, then the keyset page of the networks in scope
 *                              ({items, next_cursor}, HMAC'd cursor like the service's)
 *   POST /v1/networks/{n}/campaigns  (optional Idempotency-Key) the key lookup, then ONE transaction
 *                              (one commit, as server/http/idempotency.ts): the advisory lock and
 *                              the key's row in one statement, the advertiser `SELECT … FOR SHARE`
 *                              (live, same network), the campaign `INSERT … RETURNING` and the
 *                              response, AES-256-GCM sealed, stored on the key (UPDATE) before
 *                              COMMIT; the answer is sent after it. No audit row (the service
 *                              writes none for a campaign).
 *   POST /v1/networks          (super_user; optional Idempotency-Key) the same one commit around the
 *                              network `INSERT … RETURNING`.
 *
 * PREPARE=0 turns postgres.js's prepared statements off (for investigations; the default is on).
 * Prints `baseline ready on http://127.0.0.1:PORT` once listening; SIGTERM/SIGINT stop it.
 * `npm run bench` (scripts/bench/run.ts) starts it as a child process next to the service.
 */
import { createCipheriv, createHash, createHmac, createSecretKey, hash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import postgres from 'postgres';
import { newId, pooledRandomBytes } from '@/db/ids';
// Types only: this process loads none of the service's modules.
import type { RenderedStatement } from '@/db/statement';
import type { ServiceStatements } from '@/scripts/bench/service-statements';
import type { KeyRow } from '@/server/auth/principal';

const url = process.env.DATABASE_URL;
if (!url) {
  process.stderr.write('DATABASE_URL is required\n');
  process.exit(1);
}
const port = Number(process.env.PORT ?? 0);
const host = process.env.HOST ?? '127.0.0.1';
const poolMax = Number(process.env.DATABASE_POOL_MAX ?? 10);
/** PREPARE=0: no named prepared statements (Postgres parses and plans every query, as for Drizzle's unnamed queries). */
const prepare = process.env.PREPARE !== '0';

const sql = postgres(url, { max: poolMax, prepare, onnotice: () => {}, connection: { application_name: 'bench-baseline' } });

// Same checks as server/auth/tokens.ts and server/auth/principal.ts.
const API_KEY_PATTERN = /^sk_(test|live)_[0-9A-Za-z]{32,}$/;
const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * The service's statements, as Postgres receives them (scripts/bench/service-statements.ts).
 * `npm run bench` hands them over as JSON in BENCH_STATEMENTS, so that this process loads none of
 * the service's modules; run alone, it imports them.
 */
const statements: ServiceStatements = process.env.BENCH_STATEMENTS
  ? (JSON.parse(process.env.BENCH_STATEMENTS) as ServiceStatements)
  : (await import('@/scripts/bench/service-statements')).SERVICE_STATEMENTS;

/** Runs a service statement with its placeholders' values, in the order its `$n` take them. */
function run<Row extends object>(client: postgres.Sql | postgres.TransactionSql, statement: RenderedStatement, values: Record<string, unknown>) {
  return client.unsafe<Row[]>(statement.text, statement.parameters.map((name) => values[name]) as postgres.ParameterOrJSON<never>[], { prepare });
}

async function findKey(tokenHash: string): Promise<KeyRow | undefined> {
  const rows = await run<KeyRow>(sql, statements.findKey, { tokenHash });
  return rows[0];
}

/** `last_used_at` at most once a minute per key, off the request path (as the service does). */
const lastTouched = new Map<string, number>();
function touchLastUsed(keyId: string): void {
  const now = Date.now();
  const previous = lastTouched.get(keyId);
  if (previous && now - previous < 60_000) return;
  lastTouched.set(keyId, now);
  sql`update api_keys set last_used_at = now() where id = ${keyId}
      and (last_used_at is null or last_used_at < now() - interval '1 minute')`.catch(() => lastTouched.delete(keyId));
}

// Rows of the service's statements are named by the schema's property names (db/statement.ts's tableStatement).
interface NetworkRow {
  id: string;
  name: string;
  mode: 'test' | 'live';
  maxKeyLifetimeDays: number | null;
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

function presentNetwork(r: NetworkRow) {
  return {
    id: r.id,
    name: r.name,
    mode: r.mode,
    max_key_lifetime_days: r.maxKeyLifetimeDays,
    version: r.version,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

async function listNetworks(key: KeyRow, afterId: string | undefined, take: number): Promise<NetworkRow[]> {
  if (key.super_user)
    return run<NetworkRow>(sql, statements.allNetworks, { modes: key.mode === 'live' ? ['test', 'live'] : ['test'], after: afterId ?? '', take });
  const ids = key.scopes.map((s) => s.network_id);
  if (ids.length === 0) return [];
  return run<NetworkRow>(sql, statements.scopedNetworks, { ids, after: afterId ?? '', take });
}

// KeyObjects, as the service's derived keys (server/secrets.ts): Node takes them faster than bytes.
const cursorKey = createSecretKey(randomBytes(32));
function cursorMac(body: string): Buffer {
  return createHmac('sha256', cursorKey).update('networks').update('\0').update(body).digest().subarray(0, 16);
}
function encodeCursor(lastId: string): string {
  const body = Buffer.from(lastId).toString('base64url');
  return `${body}.${cursorMac(body).toString('base64url')}`;
}
function decodeCursor(cursor: string): string | undefined {
  const [body, tag, extra] = cursor.split('.');
  if (!body || !tag || extra !== undefined) return undefined;
  return cursorMac(body).toString('base64url') === tag ? Buffer.from(body, 'base64url').toString() : undefined;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': status >= 400 ? 'application/problem+json' : 'application/json',
    'Content-Length': Buffer.byteLength(payload),
  });
  res.end(payload);
}

function problem(res: ServerResponse, status: number, title: string, detail: string): void {
  send(res, status, { type: `about:blank#${title.toLowerCase().replace(/ /g, '-')}`, title, status, detail });
}

// ---------------------------------------------------------------- POST /v1/networks/{n}/campaigns

const CAMPAIGNS_ROUTE = /^\/v1\/networks\/([^/]+)\/campaigns$/;
const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const IDEMPOTENCY_TTL_HOURS = 24;
/** The service seals stored responses (AES-256-GCM) under a key derived from its secret; so does this, under its own. */
const sealKey = createSecretKey(randomBytes(32));
function seal(plaintext: string): string {
  const iv = pooledRandomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv, body, cipher.getAuthTag()].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

interface CampaignRow {
  id: string;
  networkId: string;
  advertiserId: string;
  name: string;
  script: string;
  talkingPoints: string[];
  requiredLines: string[];
  status: string;
  startsAt: Date | null;
  endsAt: Date | null;
  budgetCents: string | null;
  currency: string | null;
  competitiveSeparation: boolean;
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

function presentCampaign(r: CampaignRow) {
  return {
    id: r.id,
    network_id: r.networkId,
    advertiser_id: r.advertiserId,
    name: r.name,
    script: r.script,
    talking_points: r.talkingPoints,
    required_lines: r.requiredLines,
    status: r.status,
    starts_at: r.startsAt?.toISOString() ?? null,
    ends_at: r.endsAt?.toISOString() ?? null,
    budget_cents: r.budgetCents === null ? null : Number(r.budgetCents),
    currency: r.currency,
    competitive_separation: r.competitiveSeparation,
    version: r.version,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Why a creation answers 4xx instead of 201 (rolled back, key forgotten). */
class Refused extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    detail: string,
  ) {
    super(detail);
  }
}

/**
 * Spec rule 8 for a write in flight (server/auth/credential-lock.ts): the transaction's first round
 * trip takes the key owner's credential lock shared and reads the key again (on the one network a
 * network operation acts on), and the write goes on only if the key still grants what was checked.
 */
async function holdCredential(tx: postgres.TransactionSql, key: KeyRow, networkId: string | undefined): Promise<void> {
  const read = networkId
    ? run<KeyRow>(tx, statements.findKeyOnNetwork, { id: key.id, networkId })
    : run<KeyRow>(tx, statements.findKeyById, { id: key.id });
  const [, [now]] = await Promise.all([run(tx, statements.holdCredential, { owner: key.user_id ?? key.service_account_id }), read]);
  if (!now || now.revoked || now.expired) throw new Refused(401, 'Unauthorized', 'This API key has been revoked.');
  const role = (k: KeyRow) => k.scopes.find((s) => s.network_id === networkId)?.role;
  if (networkId && !key.super_user && role(now) !== role(key)) throw new Refused(403, 'Forbidden', 'This API key’s access changed.');
}

/**
 * A keyed POST in ONE commit, the least the spec allows (and what server/http/idempotency.ts does):
 * in one transaction, the credential re-checked under its lock, the advisory lock on the key and its
 * row (one statement), the operation, then the answer sealed and stored on the key before COMMIT.
 */
async function createIdempotently(
  req: IncomingMessage,
  res: ServerResponse,
  key: KeyRow,
  networkId: string | undefined,
  path: string,
  raw: Buffer,
  create: (tx: postgres.TransactionSql) => Promise<StoredResponse>,
): Promise<void> {
  const idempotencyKey = req.headers['idempotency-key'];
  if (idempotencyKey !== undefined && (typeof idempotencyKey !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(idempotencyKey))) {
    problem(res, 400, 'Bad Request', 'Invalid Idempotency-Key.');
    return;
  }
  const fingerprint = createHash('sha256').update(`POST ${path}\n`).update(raw).digest('hex');
  let answer: StoredResponse;
  try {
    answer = await sql.begin(async (tx) => {
      await holdCredential(tx, key, networkId);
      if (typeof idempotencyKey === 'string') {
        const [taken] = await run<{ locked: boolean; inserted: boolean }>(tx, statements.takeKey, {
          owner: key.id,
          key: idempotencyKey,
          fingerprint,
          ttlSeconds: IDEMPOTENCY_TTL_HOURS * 3600,
        });
        // Replays are not what is measured (every request has a new key); refuse instead of decrypting.
        if (!taken!.locked || !taken!.inserted) throw new Refused(409, 'Conflict', 'This Idempotency-Key is already used.');
      }
      const created = await create(tx);
      if (typeof idempotencyKey === 'string') {
        // A plain postgres.js client JSON-encodes a jsonb parameter itself (the service's, under Drizzle, passes text through).
        await run(tx, statements.storeAnswer, {
          owner: key.id,
          key: idempotencyKey,
          status: created.status,
          headers: created.headers,
          body: seal(JSON.stringify(created.body)),
        });
      }
      return created;
    });
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    problem(res, error.status, error.title, error.message);
    return;
  }
  const payload = JSON.stringify(answer.body);
  res.writeHead(answer.status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload), ETag: answer.headers.etag! });
  res.end(payload);
}

async function readJson(req: IncomingMessage, res: ServerResponse): Promise<{ raw: Buffer; input: Record<string, unknown> } | undefined> {
  const raw = await readBody(req);
  try {
    return { raw, input: JSON.parse(raw.toString('utf8')) as Record<string, unknown> };
  } catch {
    problem(res, 400, 'Bad Request', 'The body is not JSON.');
    return undefined;
  }
}

async function createCampaign(req: IncomingMessage, res: ServerResponse, key: KeyRow, networkId: string, path: string): Promise<void> {
  const body = await readJson(req, res);
  if (!body) return;
  const { raw, input } = body;
  const role = key.super_user ? 'administrator' : key.scopes.find((s) => s.network_id === networkId)?.role;
  if (role !== 'administrator') {
    problem(res, 403, 'Forbidden', 'This API key has no administrator access to this network.');
    return;
  }
  const status = input.status ?? 'draft';
  const script = input.script ?? '';
  if (
    typeof input.name !== 'string' ||
    !input.name ||
    typeof input.advertiser_id !== 'string' ||
    typeof script !== 'string' ||
    (status !== 'draft' && status !== 'active')
  ) {
    problem(res, 400, 'Bad Request', 'Invalid campaign.');
    return;
  }
  await createIdempotently(req, res, key, networkId, path, raw, async (tx) => {
    const [advertiser] = await run<{ id: string }>(tx, statements.liveAdvertiserForShare, { networkId, advertiserId: input.advertiser_id });
    if (!advertiser) throw new Refused(400, 'Bad Request', 'advertiser_id does not name an advertiser of this network.');
    const [created] = await run<CampaignRow>(tx, statements.insertCampaign, {
      id: newId('campaign'),
      networkId,
      advertiserId: advertiser.id,
      name: input.name,
      script,
      talkingPoints: [],
      requiredLines: [],
      status,
      startsAt: null,
      endsAt: null,
      budgetCents: null,
      currency: null,
      competitiveSeparation: false,
    });
    return { status: 201, headers: { etag: `"${created!.version}"` }, body: presentCampaign(created!) };
  });
}

/** POST /v1/networks (super_user): the network `INSERT … RETURNING`, in the keyed POST's one commit. */
async function createNetwork(req: IncomingMessage, res: ServerResponse, key: KeyRow): Promise<void> {
  const body = await readJson(req, res);
  if (!body) return;
  const { raw, input } = body;
  if (!key.super_user) {
    problem(res, 403, 'Forbidden', 'This operation needs a super_user API key.');
    return;
  }
  if (typeof input.name !== 'string' || !input.name || Object.keys(input).length !== 1) {
    problem(res, 400, 'Bad Request', 'Invalid network.');
    return;
  }
  await createIdempotently(req, res, key, undefined, '/networks', raw, async (tx) => {
    const [created] = await run<NetworkRow>(tx, statements.insertNetwork, {
      id: newId('network'),
      name: input.name,
      mode: 'test',
      maxKeyLifetimeDays: null,
    });
    return { status: 201, headers: { etag: `"${created!.version}"` }, body: presentNetwork(created!) };
  });
}

const server = createServer((req, res) => {
  const target = new URL(req.url ?? '/', 'http://baseline');
  const campaignsNetwork = req.method === 'POST' ? CAMPAIGNS_ROUTE.exec(target.pathname)?.[1] : undefined;
  const route =
    req.method === 'GET'
      ? target.pathname
      : campaignsNetwork
        ? 'campaigns'
        : req.method === 'POST' && target.pathname === '/v1/networks'
          ? 'create-network'
          : '';
  if (route !== '/v1/me' && route !== '/v1/networks' && route !== 'campaigns' && route !== 'create-network') {
    problem(res, 404, 'Not Found', 'No such route.');
    return;
  }
  const token = BEARER.exec(req.headers.authorization ?? '')?.[1];
  if (!token || !API_KEY_PATTERN.test(token)) {
    problem(res, 401, 'Unauthorized', 'Missing or malformed API key.');
    return;
  }
  const handle = async () => {
    const key = await findKey(hash('sha256', token, 'hex'));
    if (!key || key.revoked || key.expired) {
      problem(res, 401, 'Unauthorized', 'Invalid API key.');
      return;
    }
    if (key.last_used_stale) touchLastUsed(key.id);
    if (route === 'campaigns') {
      // The service fingerprints the URL without the /v1 prefix.
      await createCampaign(req, res, key, decodeURIComponent(campaignsNetwork!), target.pathname.slice(3) + target.search);
      return;
    }
    if (route === 'create-network') {
      await createNetwork(req, res, key);
      return;
    }
    if (route === '/v1/me') {
      send(res, 200, {
        key_id: key.id,
        key_name: key.name,
        super_user: key.super_user,
        session: key.session,
        mode: key.mode,
        expires_at: key.expires_at_ms === null ? null : new Date(key.expires_at_ms).toISOString(),
        scopes: key.scopes.map((s) => ({ network_id: s.network_id, role: s.role })),
        owner: key.user_id
          ? { type: 'person', id: key.user_id, name: key.owner_name }
          : { type: 'service_account', id: key.service_account_id, name: key.owner_name },
      });
      return;
    }
    const limitParam = target.searchParams.get('limit');
    const limit = limitParam === null ? 50 : Number(limitParam);
    if (!Number.isInteger(limit) || limit < 1 || limit > 200) {
      problem(res, 400, 'Bad Request', 'limit must be a whole number from 1 to 200.');
      return;
    }
    const cursor = target.searchParams.get('cursor');
    const afterId = cursor === null ? undefined : decodeCursor(cursor);
    if (cursor !== null && afterId === undefined) {
      problem(res, 400, 'Bad Request', 'Invalid cursor.');
      return;
    }
    const rows = await listNetworks(key, afterId, limit + 1);
    const more = rows.length > limit;
    const page = more ? rows.slice(0, limit) : rows;
    const last = page[page.length - 1];
    send(res, 200, {
      items: page.map(presentNetwork),
      next_cursor: more && last ? encodeCursor(last.id) : null,
    });
  };
  handle().catch((error: unknown) => {
    process.stderr.write(`baseline request failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    if (!res.headersSent) problem(res, 500, 'Internal', 'An unexpected error occurred.');
    else res.destroy();
  });
});
server.keepAliveTimeout = 65_000;

server.listen(port, host, () => {
  const { port: actual } = server.address() as AddressInfo;
  process.stdout.write(`baseline ready on http://${host}:${actual}\n`);
});

const stop = () => {
  server.close();
  server.closeIdleConnections();
  void sql.end({ timeout: 5 }).finally(() => process.exit(0));
  setTimeout(() => process.exit(0), 5_000).unref();
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
