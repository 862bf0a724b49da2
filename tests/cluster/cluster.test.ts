import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKeyToken } from '@/server/auth/tokens';
import { CHECK_FALL, CHECK_INTERVAL_MS } from '@/scripts/cluster/haproxy';
import { api, grantVoiceConsentOverHttp, type ApiResponse } from '@/tests/support/api';
import { createTestDatabase } from '@/tests/support/database';
import { freePort } from '@/tests/support/free-port';
import { ROOT } from '@/tests/support/server-process';
import { until } from '@/tests/support/until';
import { startWebhookReceiver } from '@/tests/support/webhook-receiver';

/**
 * `npm run cluster` as an operator runs it — HAProxy in front of two web processes, two
 * workers, PgBouncer in front of Postgres — and every request of these tests through the
 * HAProxy address.
 */

const RATE = 50; // per key per second, and the burst
const token = generateApiKeyToken('test');

interface Cluster {
  url: string;
  statsUrl: string;
  pids: Record<string, number>;
  output(): string;
  stop(): Promise<void>;
}

let cluster: Cluster;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let hookSecret = '';

async function startCluster(): Promise<Cluster> {
  const database = await createTestDatabase('cluster');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ans-cluster-'));
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'scripts/cluster.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      BOOTSTRAP_SUPERUSER_TOKEN: token,
      RATE_LIMIT_PER_SECOND: String(RATE),
      RATE_LIMIT_BURST: String(RATE),
      WEBHOOK_ALLOW_PRIVATE: '1',
      // Quick retries, and a job left locked by a killed worker is taken back after 8 s.
      WEBHOOK_RETRY_SCHEDULE: '0,0.5,1,2',
      WEBHOOK_TIMEOUT_MS: '2000',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const cleanUp = async () => {
    rmSync(dataDir, { recursive: true, force: true });
    await database.drop();
  };
  try {
    await until(() => {
      if (child.exitCode !== null) throw new Error(`npm run cluster exited:\n${output}`);
      return output.includes(`Cluster ready on http://127.0.0.1:${port}`) || undefined;
    }, 360_000);
  } catch (error) {
    child.kill('SIGTERM');
    await exited;
    await cleanUp();
    throw error;
  }
  const pids = Object.fromEntries([...output.matchAll(/\[cluster\] (\w+) pid (\d+)/g)].map((m) => [m[1]!, Number(m[2])]));
  return {
    url: `http://127.0.0.1:${port}`,
    statsUrl: /HAProxy's status page: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output)![1]!,
    pids,
    output: () => output,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      // Everything every part printed, for a reader of a failure.
      mkdirSync(path.join(ROOT, 'test-results'), { recursive: true });
      writeFileSync(path.join(ROOT, 'test-results', 'cluster.log'), output);
      await cleanUp();
    },
  };
}

const call = <T = Record<string, unknown>>(method: string, p: string, options: { body?: unknown; key?: string; token?: string } = {}) =>
  api<T>(method, p, {
    token: options.token ?? token,
    baseUrl: cluster.url,
    body: options.body,
    headers: options.key ? { 'idempotency-key': options.key } : {},
  });

/**
 * A client that does what the README tells integrators: retry a 5xx, a 409 "still being
 * processed" or a dropped connection with the same Idempotency-Key until it gets an answer, and
 * a 429 after its Retry-After.
 */
async function untilAnswered<T>(method: string, p: string, body: unknown, key: string, errors: string[]): Promise<ApiResponse<T>> {
  for (let attempt = 0; ; attempt++) {
    const res = await call<T>(method, p, { body, key }).catch((error: unknown) => ({ status: 0, error }) as const);
    const retry = res.status === 0 || res.status >= 500 || (res.status === 409 && /being processed/i.test((res as ApiResponse).text));
    if (res.status === 429) {
      await new Promise((r) => setTimeout(r, Number((res as ApiResponse).headers.get('retry-after') ?? 1) * 1000));
      continue;
    }
    if (!retry) return res as ApiResponse<T>;
    errors.push(`${method} ${p}: ${res.status}`);
    if (attempt > 200) throw new Error(`no answer for ${method} ${p} after ${attempt} tries`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Each web process's status as HAProxy sees it (UP, DOWN, …), from its status page's CSV. */
async function backendStatus(): Promise<Record<string, string>> {
  const csv = await (await fetch(`${cluster.statsUrl};csv`)).text();
  const [header, ...rows] = csv.trim().split('\n');
  const columns = header!.replace(/^# /, '').split(',');
  const status = columns.indexOf('status');
  return Object.fromEntries(
    rows
      .map((r) => r.split(','))
      .filter((c) => c[0] === 'web' && c[1] !== 'BACKEND')
      .map((c) => [c[1]!, c[status]!]),
  );
}

/** How many request lines each web process logged for `route` with `keyId`. */
function requestsPerWeb(route: string, keyId?: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const m of cluster.output().matchAll(/^\[(web\d+)\] (\{.*"msg":"request"\})$/gm)) {
    const line = JSON.parse(m[2]!) as { route?: string; keyId?: string };
    if (line.route === route && (keyId === undefined || line.keyId === keyId)) counts[m[1]!] = (counts[m[1]!] ?? 0) + 1;
  }
  return counts;
}

beforeAll(async () => {
  receiver = await startWebhookReceiver(() => hookSecret);
  cluster = await startCluster();
});

afterAll(async () => {
  await cluster?.stop();
  await receiver?.close();
});

describe('npm run cluster, through HAProxy', () => {
  it('starts HAProxy, two web processes, two workers and PgBouncer, and HAProxy sees both web processes up', async () => {
    expect(Object.keys(cluster.pids).sort()).toEqual(['haproxy', 'pgbouncer', 'web1', 'web2', 'worker1', 'worker2']);
    const status = await backendStatus();
    expect(Object.keys(status).sort()).toEqual(['web1', 'web2']);
    for (const s of Object.values(status)) expect(s).toMatch(/^UP/);
    expect((await fetch(`${cluster.url}/healthz`)).status).toBe(200);
  });

  it('runs the whole flow: network → … → the host’s consent → accept → creative pending approval → a signed webhook received', async () => {
    const n = (await call<{ id: string }>('POST', '/networks', { body: { name: 'Cluster flow' } })).body.id;
    const hook = await call<{ id: string; secret: string }>('POST', `/networks/${n}/webhooks`, {
      body: { url: receiver.url, events: ['offer.accepted', 'creative.ready'] },
    });
    expect(hook.status).toBe(201);
    hookSecret = hook.body.secret;
    const advertiser = await call<{ id: string }>('POST', `/networks/${n}/advertisers`, { body: { name: 'Acme' } });
    const campaign = await call<{ id: string }>('POST', `/networks/${n}/campaigns`, {
      body: { name: 'Spring', advertiser_id: advertiser.body.id, script: 'Sleep better with Acme.', status: 'active' },
    });
    const podcast = await call<{ id: string }>('POST', `/networks/${n}/podcasts`, { body: { name: 'Pod', host_name: 'Sam' } });
    expect((await call('POST', `/networks/${n}/podcasts/${podcast.body.id}/opt-in`)).status).toBe(200);
    await grantVoiceConsentOverHttp((method, p, body) => call(method, p, { body }), n, podcast.body.id, { baseUrl: cluster.url });
    const offer = await call<{ id: string }>('POST', `/networks/${n}/offers`, {
      body: { campaign_id: campaign.body.id, podcast_id: podcast.body.id },
    });
    const accepted = await call<{ creative_id: string }>('POST', `/networks/${n}/offers/${offer.body.id}/accept`);
    expect(accepted.status).toBe(200);
    await until(async () => {
      const c = await call<{ status: string }>('GET', `/networks/${n}/creatives/${accepted.body.creative_id}`);
      return c.body.status === 'pending_approval' || undefined;
    }, 90_000);
    const ready = await until(() => receiver.received.find((r) => r.headers['x-service-event'] === 'creative.ready'), 60_000);
    expect(ready.verified).toBe(true);
    expect(JSON.parse(ready.raw.toString('utf8')).data.creative_id).toBe(accepted.body.creative_id);
    expect((await call('GET', `/networks/${n}/creatives/${accepted.body.creative_id}/audio`)).status).toBe(200);
  });

  it('holds one key to its rate limit across both web processes (within 10 % over 10 s)', async () => {
    const minted = await call<{ id: string; token: string }>('POST', '/apikeys', { body: { key_name: 'rate' } });
    expect(minted.status).toBe(201);
    const statuses: number[] = [];
    const started = Date.now();
    const until10s = started + 10_000;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (Date.now() < until10s) statuses.push((await call('GET', '/me', { token: minted.body.token })).status);
      }),
    );
    const seconds = (Date.now() - started) / 1000;
    const allowed = statuses.filter((s) => s === 200).length;
    const expected = RATE + RATE * seconds; // the burst, then the rate
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    expect(Math.abs(allowed - expected) / expected).toBeLessThanOrEqual(0.1);
    const served = requestsPerWeb('GET /me', minted.body.id);
    expect(Object.keys(served).sort()).toEqual(['web1', 'web2']);
  });

  it('of 20 concurrent POSTs with one Idempotency-Key, over both web processes, one creates and the others replay', async () => {
    const key = crypto.randomUUID();
    const name = `Once ${key.slice(0, 8)}`;
    const errors: string[] = [];
    const answers = await Promise.all(Array.from({ length: 20 }, () => untilAnswered<{ id: string }>('POST', '/networks', { name }, key, errors)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') !== 'true')).toHaveLength(1);
    const all = await call<{ items: Array<{ name: string }> }>('GET', '/networks?limit=200');
    expect(all.body.items.filter((x) => x.name === name)).toHaveLength(1);
    expect(Object.keys(requestsPerWeb('POST /networks')).sort()).toEqual(['web1', 'web2']);
  });

  it('loses nothing when a web process and a worker are SIGKILLed under load; HAProxy stops sending to the dead one within its checks', async () => {
    const n = (await call<{ id: string }>('POST', '/networks', { body: { name: 'Cluster kill' } })).body.id;
    const hook = await call<{ id: string; secret: string }>('POST', `/networks/${n}/webhooks`, {
      body: { url: receiver.url, events: ['optin.completed'] },
    });
    hookSecret = hook.body.secret;
    const errors: string[] = [];
    const podcasts: string[] = [];
    const loadEnds = Date.now() + 10_000;
    let killedAt = 0;
    const killer = (async () => {
      await new Promise((r) => setTimeout(r, 3_000));
      killedAt = Date.now();
      process.kill(cluster.pids.web1!, 'SIGKILL');
      process.kill(cluster.pids.worker1!, 'SIGKILL');
      const down = await until(async () => ((await backendStatus()).web1?.startsWith('DOWN') ? Date.now() : undefined), 10_000);
      return down - killedAt;
    })();
    const load = Promise.all(
      Array.from({ length: 6 }, async (_, client) => {
        for (let i = 0; Date.now() < loadEnds; i++) {
          const name = `Pod ${client}-${i}`;
          const key = `${n}-pod-${client}-${i}`;
          const made = await untilAnswered<{ id: string }>('POST', `/networks/${n}/podcasts`, { name, host_name: 'Sam' }, key, errors);
          expect(made.status).toBe(201);
          const optIn = await untilAnswered('POST', `/networks/${n}/podcasts/${made.body.id}/opt-in`, undefined, `${key}-opt-in`, errors);
          expect(optIn.status).toBe(200);
          podcasts.push(made.body.id);
        }
      }),
    );
    const [loaded, killed] = await Promise.allSettled([load, killer]);
    if (loaded.status === 'rejected') throw loaded.reason;
    if (killed.status === 'rejected') throw killed.reason;
    const detectedMs = killed.value;
    // HAProxy's checks: every CHECK_INTERVAL_MS, CHECK_FALL failures in a row take a server out.
    expect(detectedMs).toBeLessThanOrEqual(CHECK_INTERVAL_MS * CHECK_FALL + 1_500);

    // Every committed podcast exists once, and every opt-in's event arrives (at least once).
    const listed: string[] = [];
    for (let cursor: string | null = null; ;) {
      // The load spent the operator key's rate limit: this read waits out its 429s like a client.
      const page: ApiResponse<{ items: Array<{ id: string; name: string }>; next_cursor: string | null }> = await untilAnswered(
        'GET',
        `/networks/${n}/podcasts?limit=200${cursor ? `&cursor=${cursor}` : ''}`,
        undefined,
        '',
        [],
      );
      expect(page.status).toBe(200);
      listed.push(...page.body.items.map((p) => p.name));
      if (!(cursor = page.body.next_cursor)) break;
    }
    expect(listed).toHaveLength(podcasts.length);
    expect(new Set(listed).size).toBe(listed.length);
    const optedIn = () => {
      const seen = new Set<string>();
      for (const r of receiver.received) {
        const body = JSON.parse(r.raw.toString('utf8')) as { type: string; data: { podcast_id?: string } };
        if (body.type === 'optin.completed' && r.verified && body.data.podcast_id) seen.add(body.data.podcast_id);
      }
      return seen;
    };
    await until(() => (podcasts.every((id) => optedIn().has(id)) ? true : undefined), 90_000);
    const deliveryIds = receiver.received.map((r) => String(r.headers['x-service-delivery']));
    const duplicates = deliveryIds.length - new Set(deliveryIds).size;
    console.info(
      `cluster kill: ${podcasts.length} podcasts opted in, every event delivered (${duplicates} duplicate deliveries); ` +
        `${errors.length} answers retried with their Idempotency-Key; HAProxy marked web1 down after ${detectedMs} ms`,
    );
    expect(podcasts.length).toBeGreaterThan(20);
  });
});
