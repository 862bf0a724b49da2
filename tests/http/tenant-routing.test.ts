import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKeyToken } from '@/server/auth/tokens';
import { api } from '@/tests/support/api';
import { createTestDatabase } from '@/tests/support/database';
import { startPostgresProxy } from '@/tests/support/pg-proxy';
import { ROOT, startServerProcess, type ServerProcess } from '@/tests/support/server-process';
import { startWebhookReceiver } from '@/tests/support/webhook-receiver';
import { until } from '@/tests/support/until';

/**
 * The statement check behind docs/SCALING.md's Citus plan: every SQL statement the
 * service (web and worker) sends during the acceptance flow is read off the wire,
 * through a proxy in front of Postgres, and each one that touches a table the plan
 * distributes by `network_id` must name `network_id` — so that Citus can route it
 * to one shard — unless it is listed in EXCEPTIONS with its reason.
 */

/** The tables docs/SCALING.md distributes by network_id (co-located); the rest are reference or coordinator tables. */
const DISTRIBUTED = new Set([
  'advertisers',
  'campaigns',
  'podcasts',
  'offers',
  'creatives',
  'creative_audio',
  'events',
  'audit_log',
  'webhooks',
  'webhook_deliveries',
  'webhook_attempts',
]);

/** Tables a statement reads or writes. */
function tablesOf(sql: string): string[] {
  return [...sql.matchAll(/\b(?:from|join|into|update)\s+"?(\w+)"?(?:\."?(\w+)"?)?/gi)].map((m) => (m[2] ?? m[1]!).toLowerCase());
}

/**
 * Citus can route it to one shard: it filters by network_id, or inserts a row that names it; a
 * join of tenant tables joins on network_id too (a co-located join).
 */
function routedByNetwork(sql: string): boolean {
  const joinsTenants = /\bjoin\b/i.test(sql) && new Set(tablesOf(sql).filter((t) => DISTRIBUTED.has(t))).size > 1;
  if (joinsTenants && !/network_id"?\s*=\s*"?\w+"?\."?network_id/i.test(sql)) return false;
  if (/network_id"?\s*=\s*\$\d+/i.test(sql)) return true;
  const insertColumns = /^\s*(?:with\s+\w+\s+as\s*\(\s*)?insert\s+into\s+"?\w+"?\s*\(([^)]*)\)/i.exec(sql);
  return insertColumns !== null && /\bnetwork_id\b/.test(insertColumns[1]!);
}

/**
 * Statements that do not name network_id today, each with why, and what the plan
 * does about it (docs/SCALING.md, "Statements that do not route"). The test fails
 * when one of these is no longer sent, so the list never outlives its reasons.
 */
const EXCEPTIONS: Array<{ matches: RegExp; reason: string }> = [];

/**
 * The crons that sweep every network on purpose (`EVERY_NETWORK` in their code): under Citus one
 * multi-shard statement each, which is fine for a cron. They fire on their own schedule, so one may
 * or may not fall inside the recording; they are left out of the check, each matched by its own
 * statement only (a request-path statement of the same table still counts).
 */
const SWEEPS: Array<{ cron: string; matches: RegExp }> = [
  { cron: 'expire-offers', matches: /^update "offers" set "status" = \$1, "version" = [^]* where \("offers"\."status" = \$2 and "offers"\."expires_at" <= now\(\)\)/ },
  { cron: 'auto-disable-webhooks', matches: /^update "webhooks" set "status" = \$1, "disabled_reason" = \$2, [^]* where \("webhooks"\."status" = \$3 and "webhooks"\."deleted_at" is null and exists \(select 1 from "webhook_deliveries"/ },
];

let server: ServerProcess;
let stopAll: () => Promise<void>;
const token = generateApiKeyToken('test');
const statements: string[] = [];
let recording = false;
let secret = '';
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

beforeAll(async () => {
  receiver = await startWebhookReceiver(() => secret);
  const database = await createTestDatabase('tenant');
  const direct = new URL(database.url);
  const proxy = await startPostgresProxy(
    { host: direct.hostname, port: Number(direct.port || 5432) },
    { onStatement: (sql) => recording && statements.push(sql) },
  );
  const viaProxy = new URL(database.url);
  viaProxy.port = String(proxy.port);
  server = await startServerProcess({ DATABASE_URL: viaProxy.toString(), BOOTSTRAP_SUPERUSER_TOKEN: token, WEBHOOK_ALLOW_PRIVATE: '1' });
  stopAll = async () => {
    await server.stop();
    await proxy.close();
    await database.drop();
  };
});

afterAll(async () => {
  await stopAll?.();
  await receiver?.close();
});

const call = <T = Record<string, unknown>>(method: string, p: string, body?: unknown) =>
  api<T>(method, p, { token, baseUrl: server.url, body, headers: method === 'POST' ? { 'idempotency-key': crypto.randomUUID() } : {} });


describe('statements of the acceptance flow', () => {
  it('every statement on a distributed table names network_id, but the listed exceptions', async () => {
    const n = (await call<{ id: string }>('POST', '/networks', { name: 'Citus' })).body.id;
    recording = true;
    const hook = await call<{ id: string; secret: string }>('POST', `/networks/${n}/webhooks`, {
      url: receiver.url,
      events: ['offer.accepted', 'creative.ready'],
    });
    secret = hook.body.secret;
    const advertiser = await call<{ id: string }>('POST', `/networks/${n}/advertisers`, { name: 'Acme' });
    const campaign = await call<{ id: string }>('POST', `/networks/${n}/campaigns`, {
      name: 'Spring',
      advertiser_id: advertiser.body.id,
      script: 'Sleep better with Acme.',
      status: 'active',
    });
    const podcast = await call<{ id: string }>('POST', `/networks/${n}/podcasts`, { name: 'Pod', host_name: 'Sam' });
    expect((await call('POST', `/networks/${n}/podcasts/${podcast.body.id}/opt-in`)).status).toBe(200);
    const offer = await call<{ id: string }>('POST', `/networks/${n}/offers`, { campaign_id: campaign.body.id, podcast_id: podcast.body.id });
    expect(offer.status).toBe(201);
    const accepted = await call<{ creative_id: string }>('POST', `/networks/${n}/offers/${offer.body.id}/accept`);
    expect(accepted.status).toBe(200);
    await until(async () => {
      const c = await call<{ status: string }>('GET', `/networks/${n}/creatives/${accepted.body.creative_id}`);
      return c.body.status === 'ready' ? c : undefined;
    }, 60_000);
    await until(async () => (receiver.received.some((r) => r.headers['x-service-event'] === 'creative.ready') ? true : undefined), 60_000);
    // What the console and an integration read afterwards.
    expect((await call('POST', `/networks/${n}/webhooks/${hook.body.id}/test`, { event_type: 'offer.accepted' })).status).toBe(202);
    for (const list of ['campaigns', 'offers', 'creatives', 'podcasts', 'advertisers', 'events', 'webhooks', `webhooks/${hook.body.id}/deliveries`]) {
      expect((await call('GET', `/networks/${n}/${list}`)).status).toBe(200);
    }
    expect((await call('GET', `/networks/${n}/creatives/${accepted.body.creative_id}/audio`)).status).toBe(200);
    const deliveries = await call<{ items: Array<{ id: string }> }>('GET', `/networks/${n}/webhooks/${hook.body.id}/deliveries`);
    expect((await call('GET', `/networks/${n}/webhooks/${hook.body.id}/deliveries/${deliveries.body.items[0]!.id}`)).status).toBe(200);
    expect((await call('GET', `/networks/${n}/overview`)).status).toBe(200);
    expect((await call('GET', `/networks/${n}/webhook-delivery-stats`)).status).toBe(200);
    recording = false;

    const seen = [...new Set(statements)];
    writeFileSync(path.join(ROOT, 'test-results', 'tenant-statements.sql'), seen.join(';\n\n') + ';\n');
    const tenantStatements = seen.filter((sql) => tablesOf(sql).some((t) => DISTRIBUTED.has(t)) && !SWEEPS.some((c) => c.matches.test(sql)));
    expect(tenantStatements.length).toBeGreaterThan(20); // the flow really ran through the recorder

    const unrouted = tenantStatements.filter((sql) => !routedByNetwork(sql));
    const unexplained = unrouted.filter((sql) => !EXCEPTIONS.some((e) => e.matches.test(sql)));
    expect(unexplained, 'statements on distributed tables that name no network_id and are not listed in EXCEPTIONS').toEqual([]);
    const stale = EXCEPTIONS.filter((e) => !unrouted.some((sql) => e.matches.test(sql))).map((e) => e.matches.source);
    expect(stale, 'EXCEPTIONS no statement needs any more: remove them (and from docs/SCALING.md)').toEqual([]);
  });
});
