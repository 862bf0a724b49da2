/**
 * The benchmark's baseline: a bare `node:http` + postgres.js (the same patched
 * package and pool size as the service) server that does the SAME database
 * work per request as the service's `/v1` handlers, and nothing else — no
 * tRPC, no zod, no OpenAPI adapter, no request log, no rate limiter.
 *
 *   DATABASE_URL=postgres://… PORT=3231 npx tsx scripts/bench/baseline.ts
 *
 * Routes (Authorization: Bearer <API key> on all):
 *   GET /v1/me                 the key lookup below, then {key_id, key_name, super_user, scopes}
 *   GET /v1/networks?limit=N   the key lookup, then the keyset page of the networks in scope
 *                              ({items, next_cursor}, HMAC'd cursor like the service's)
 *   POST /v1/networks/{n}/campaigns  (optional Idempotency-Key) the statements the service runs, in
 *                              its order (server/http/rest.ts, server/http/idempotency.ts,
 *                              server/services/campaigns/create-campaign.ts): the key lookup; the
 *                              reservation (INSERT … ON CONFLICT DO NOTHING RETURNING, autocommit);
 *                              one transaction with the advertiser `SELECT … FOR SHARE` (live, same
 *                              network), the campaign `INSERT … RETURNING` and the response,
 *                              AES-256-GCM sealed, stored on the key (UPDATE), committed before it
 *                              is sent (the service's idempotentTransaction, server/trpc.ts).
 *                              The service writes no audit row for a campaign; neither does this.
 *
 * PREPARE=0 turns postgres.js's prepared statements off (for investigations; the default is on).
 * Prints `baseline ready on http://127.0.0.1:PORT` once listening; SIGTERM/SIGINT stop it.
 * `npm run bench` (scripts/bench/run.ts) starts it as a child process next to the service.
 */
import { createCipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import postgres from 'postgres';
import { newId } from '@/db/ids';

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

interface KeyRow {
  id: string;
  name: string;
  super_user: boolean;
  user_id: string | null;
  service_account_id: string | null;
  expired: boolean;
  revoked: boolean;
  last_used_stale: boolean;
  scopes: Array<{ network_id: string; role: string }>;
}

/** The per-request key lookup: the SQL text of `findKey` in server/auth/principal.ts. */
async function findKey(tokenHash: string): Promise<KeyRow | undefined> {
  const rows = await sql<KeyRow[]>`
    select k.id, k.name, k.super_user, k.user_id, k.service_account_id,
      (k.last_used_at is null or k.last_used_at < now() - interval '1 minute') as last_used_stale,
      (k.expires_at is not null and k.expires_at <= now()) as expired,
      (k.revoked_at is not null and k.revoked_at <= now()) as revoked,
      coalesce((
        select json_agg(json_build_object(
          'network_id', s.network_id,
          'role', case when s.role = 'administrator' and coalesce(m.role, sa.role) = 'administrator'
                       then 'administrator' else 'read_only' end)
          order by s.network_id)
        from api_key_scopes s
        left join memberships m
          on m.user_id = k.user_id and m.network_id = s.network_id and m.status = 'active'
        left join service_accounts sa
          on sa.id = k.service_account_id and sa.network_id = s.network_id and sa.deleted_at is null
        where s.key_id = k.id and (m.id is not null or sa.id is not null)
      ), '[]'::json) as scopes
    from api_keys k
    left join service_accounts owner_sa on owner_sa.id = k.service_account_id
    where k.token_hash = ${tokenHash} and (k.service_account_id is null or owner_sa.deleted_at is null)`;
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

interface NetworkRow {
  id: string;
  name: string;
  version: number;
  created_at: Date;
  updated_at: Date;
}

async function listNetworks(key: KeyRow, afterId: string | undefined, take: number): Promise<NetworkRow[]> {
  if (key.super_user) {
    return afterId
      ? sql<NetworkRow[]>`select id, name, version, created_at, updated_at from networks where id > ${afterId} order by id limit ${take}`
      : sql<NetworkRow[]>`select id, name, version, created_at, updated_at from networks order by id limit ${take}`;
  }
  const ids = key.scopes.map((s) => s.network_id);
  if (ids.length === 0) return [];
  return afterId
    ? sql<NetworkRow[]>`select id, name, version, created_at, updated_at from networks
        where id = any(${sql.array(ids)}) and id > ${afterId} order by id limit ${take}`
    : sql<NetworkRow[]>`select id, name, version, created_at, updated_at from networks
        where id = any(${sql.array(ids)}) order by id limit ${take}`;
}

const cursorKey = randomBytes(32);
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
const sealKey = randomBytes(32);
function seal(plaintext: string): string {
  const iv = randomBytes(12);
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
  network_id: string;
  advertiser_id: string;
  name: string;
  script: string;
  status: string;
  starts_at: Date | null;
  ends_at: Date | null;
  budget_cents: string | null;
  currency: string | null;
  version: number;
  created_at: Date;
  updated_at: Date;
}

function presentCampaign(r: CampaignRow) {
  return {
    id: r.id,
    network_id: r.network_id,
    advertiser_id: r.advertiser_id,
    name: r.name,
    script: r.script,
    status: r.status,
    starts_at: r.starts_at?.toISOString() ?? null,
    ends_at: r.ends_at?.toISOString() ?? null,
    budget_cents: r.budget_cents === null ? null : Number(r.budget_cents),
    currency: r.currency,
    version: r.version,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

async function createCampaign(req: IncomingMessage, res: ServerResponse, key: KeyRow, networkId: string, path: string): Promise<void> {
  const raw = await readBody(req);
  let input: { name?: unknown; advertiser_id?: unknown; script?: unknown; status?: unknown };
  try {
    input = JSON.parse(raw.toString('utf8')) as typeof input;
  } catch {
    problem(res, 400, 'Bad Request', 'The body is not JSON.');
    return;
  }
  const role = key.super_user ? 'administrator' : key.scopes.find((s) => s.network_id === networkId)?.role;
  if (role !== 'administrator') {
    problem(res, 403, 'Forbidden', 'This API key has no administrator access to this network.');
    return;
  }
  const status = input.status ?? 'draft';
  const script = input.script ?? '';
  if (typeof input.name !== 'string' || !input.name || typeof input.advertiser_id !== 'string' || typeof script !== 'string' || (status !== 'draft' && status !== 'active')) {
    problem(res, 400, 'Bad Request', 'Invalid campaign.');
    return;
  }
  const idempotencyKey = req.headers['idempotency-key'];
  let store: ((r: StoredResponse, tx: postgres.TransactionSql) => Promise<unknown>) | undefined;
  if (typeof idempotencyKey === 'string') {
    if (!IDEMPOTENCY_KEY_PATTERN.test(idempotencyKey)) {
      problem(res, 400, 'Bad Request', 'Invalid Idempotency-Key.');
      return;
    }
    const fingerprint = createHash('sha256').update(`POST ${path}\n`).update(raw).digest('hex');
    const inserted = await sql`
      insert into idempotency_keys (api_key_id, key, fingerprint, state, expires_at)
      values (${key.id}, ${idempotencyKey}, ${fingerprint}, 'running', now() + make_interval(secs => ${IDEMPOTENCY_TTL_HOURS * 3600}))
      on conflict do nothing returning key`;
    if (inserted.length === 0) {
      // Replays are not what is measured (every request has a new key); answer as the service would, minus decryption.
      problem(res, 409, 'Conflict', 'This Idempotency-Key is already used.');
      return;
    }
    store = (r, tx) => tx`
      update idempotency_keys set state = 'done', response_status = ${r.status},
        response_headers = ${sql.json(r.headers)}, response_body = ${sql.json(seal(JSON.stringify(r.body)))}
      where api_key_id = ${key.id} and key = ${idempotencyKey}`;
  }
  const row = await sql.begin(async (tx) => {
    const [advertiser] = await tx<Array<{ id: string }>>`
      select id, network_id, name, website, contact_email, deleted_at, version, created_at, updated_at
      from advertisers where network_id = ${networkId} and id = ${input.advertiser_id as string} and deleted_at is null
      for share`;
    if (!advertiser) return undefined;
    const [created] = await tx<CampaignRow[]>`
      insert into campaigns (id, network_id, advertiser_id, name, script, status, starts_at, ends_at, budget_cents, currency)
      values (${newId('campaign')}, ${networkId}, ${advertiser.id}, ${input.name as string}, ${script}, ${status}, null, null, null, null)
      returning id, network_id, advertiser_id, name, script, status, starts_at, ends_at, budget_cents, currency, version, created_at, updated_at`;
    const answer = { status: 201, headers: { etag: `"${created!.version}"` }, body: presentCampaign(created!) };
    if (store) await store(answer, tx);
    return answer;
  });
  if (!row) {
    if (typeof idempotencyKey === 'string') await sql`delete from idempotency_keys where api_key_id = ${key.id} and key = ${idempotencyKey}`;
    problem(res, 400, 'Bad Request', 'advertiser_id does not name an advertiser of this network.');
    return;
  }
  const payload = JSON.stringify(row.body);
  res.writeHead(201, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload), ETag: row.headers.etag });
  res.end(payload);
}

const server = createServer((req, res) => {
  const target = new URL(req.url ?? '/', 'http://baseline');
  const campaignsNetwork = req.method === 'POST' ? CAMPAIGNS_ROUTE.exec(target.pathname)?.[1] : undefined;
  const route = req.method === 'GET' ? target.pathname : campaignsNetwork ? 'campaigns' : '';
  if (route !== '/v1/me' && route !== '/v1/networks' && route !== 'campaigns') {
    problem(res, 404, 'Not Found', 'No such route.');
    return;
  }
  const token = BEARER.exec(req.headers.authorization ?? '')?.[1];
  if (!token || !API_KEY_PATTERN.test(token)) {
    problem(res, 401, 'Unauthorized', 'Missing or malformed API key.');
    return;
  }
  const handle = async () => {
    const key = await findKey(createHash('sha256').update(token).digest('hex'));
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
    if (route === '/v1/me') {
      send(res, 200, {
        key_id: key.id,
        key_name: key.name,
        super_user: key.super_user,
        scopes: key.scopes.map((s) => ({ network_id: s.network_id, role: s.role })),
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
      items: page.map((r) => ({
        id: r.id,
        name: r.name,
        version: r.version,
        created_at: r.created_at.toISOString(),
        updated_at: r.updated_at.toISOString(),
      })),
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
