import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { verify } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { ROOT } from '@/tests/support/server-process';
import { useDeliveringServer } from '@/tests/support/delivering-server';
import type { Received } from '@/tests/support/webhook-receiver';
import { until } from '@/tests/support/until';

/** Deliveries to a real receiver, from a server of our own that may reach 127.0.0.1 and retries fast. */
const hooks = useDeliveringServer('hooks');

const call = hooks.call;

async function networkWithHook(events: string[]) {
  const n = (await call<{ id: string }>('POST', '/networks', { name: 'Hooks' })).body.id;
  const hook = await call<{ id: string; secret: string }>('POST', `/networks/${n}/webhooks`, { url: hooks.receiver.url, events });
  expect(hook.status).toBe(201);
  hooks.secret = hook.body.secret;
  const pod = await call<{ id: string }>('POST', `/networks/${n}/podcasts`, { name: 'Pod', host_name: 'Sam' });
  return { n, hookId: hook.body.id, podcastId: pod.body.id };
}

describe('webhook delivery', () => {
  it('delivers a subscribed event signed over the exact bytes, with the documented envelope and headers', async () => {
    hooks.receiver.respondWith(() => 200);
    const before = hooks.receiver.received.length;
    const { n, podcastId } = await networkWithHook(['optin.completed']);
    await call('POST', `/networks/${n}/podcasts/${podcastId}/opt-in`);
    const got = await until(() => hooks.receiver.received.slice(before).find((r) => r.headers['x-service-event'] === 'optin.completed'));
    expect(got.verified).toBe(true);
    const envelope = JSON.parse(got.raw.toString());
    // Every network of a test-mode service is a test network, so its deliveries say so (docs/webhooks.md#test-deliveries).
    expect(Object.keys(envelope).sort()).toEqual(['data', 'id', 'occurred_at', 'test', 'type']);
    expect(envelope.test).toBe(true);
    expect(got.headers['x-service-test']).toBe('true');
    expect(envelope).toMatchObject({ type: 'optin.completed', data: { podcast_id: podcastId } });
    expect(envelope.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(got.headers['x-service-delivery']).toBe(envelope.id);
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['user-agent']).toMatch(/AdNetworkService/);
    expect(got.headers['x-service-signature']).toMatch(/^[0-9a-f]{64}$/);
    // An independent implementation of the same scheme agrees.
    expect(await verify(hooks.secret, got.raw.toString(), `sha256=${got.headers['x-service-signature']}`)).toBe(true);
  });

  it('does not deliver event types the subscription did not ask for', async () => {
    hooks.receiver.respondWith(() => 200);
    const { n, podcastId } = await networkWithHook(['offer.accepted']);
    const before = hooks.receiver.received.length;
    await call('POST', `/networks/${n}/podcasts/${podcastId}/opt-in`);
    await new Promise((r) => setTimeout(r, 1000));
    expect(hooks.receiver.received.slice(before)).toHaveLength(0);
  });

  it('fans one event out to every subscription that wants it, each with its own delivery id and secret', async () => {
    hooks.receiver.respondWith(() => 200);
    const { n, podcastId } = await networkWithHook(['optin.completed']);
    const firstSecret = hooks.secret;
    const second = await call<{ secret: string }>('POST', `/networks/${n}/webhooks`, {
      url: `${hooks.receiver.url}?second`,
      events: ['optin.completed', 'offer.accepted'],
    });
    expect(second.status).toBe(201);
    const other = await call('POST', `/networks/${n}/webhooks`, { url: `${hooks.receiver.url}?other`, events: ['offer.accepted'] });
    expect(other.status).toBe(201);
    hooks.secret = firstSecret;
    const before = hooks.receiver.received.length;
    expect((await call('POST', `/networks/${n}/podcasts/${podcastId}/opt-in`)).status).toBe(200);
    await until(() => (hooks.receiver.received.length - before >= 2 ? true : undefined));
    await new Promise((r) => setTimeout(r, 500));
    const got = hooks.receiver.received.slice(before);
    expect(got).toHaveLength(2);
    expect(new Set(got.map((r) => r.headers['x-service-delivery'])).size).toBe(2);
    for (const r of got) {
      const key = r.headers['x-service-signature'] === undefined ? '' : String(r.headers['x-service-signature']);
      const candidates = [firstSecret, second.body.secret];
      const matches = await Promise.all(candidates.map((s) => verify(s, r.raw.toString(), `sha256=${key}`)));
      expect(matches.filter(Boolean)).toHaveLength(1);
      expect(JSON.parse(r.raw.toString()).id).toBe(r.headers['x-service-delivery']);
    }
  });

  it('retries 500, 500 → 200: delivered on attempt 3 with the same id and bytes', async () => {
    const { n, podcastId } = await networkWithHook(['optin.completed']);
    const before = hooks.receiver.received.length;
    hooks.receiver.respondWith((_, count) => (count - before <= 2 ? 500 : 200));
    await call('POST', `/networks/${n}/podcasts/${podcastId}/opt-in`);
    await until(() => (hooks.receiver.received.length - before >= 3 ? true : undefined));
    const attempts = hooks.receiver.received.slice(before, before + 3);
    expect(new Set(attempts.map((a) => a.headers['x-service-delivery'])).size).toBe(1);
    expect(new Set(attempts.map((a) => a.raw.toString('hex'))).size).toBe(1);
    await new Promise((r) => setTimeout(r, 800));
    expect(hooks.receiver.received.length - before).toBe(3);
  });

  it('gives up at once on 410 and 400; retries a receiver that hangs', async () => {
    for (const status of [410, 400]) {
      const { n, podcastId } = await networkWithHook(['optin.completed']);
      const before = hooks.receiver.received.length;
      hooks.receiver.respondWith(() => status);
      await call('POST', `/networks/${n}/podcasts/${podcastId}/opt-in`);
      await until(() => (hooks.receiver.received.length > before ? true : undefined));
      await new Promise((r) => setTimeout(r, 1000));
      expect(hooks.receiver.received.length - before, `status ${status}`).toBe(1);
    }
    const { n, podcastId } = await networkWithHook(['optin.completed']);
    const before = hooks.receiver.received.length;
    hooks.receiver.respondWith((_, count) => (count - before === 1 ? 'hang' : 200));
    await call('POST', `/networks/${n}/podcasts/${podcastId}/opt-in`);
    await until(() => (hooks.receiver.received.length - before >= 2 ? true : undefined));
    expect(hooks.receiver.received[before + 1]!.headers['x-service-delivery']).toBe(hooks.receiver.received[before]!.headers['x-service-delivery']);
  });

  it('sends nothing to a disabled subscription', async () => {
    hooks.receiver.respondWith(() => 200);
    const { n, podcastId, hookId } = await networkWithHook(['optin.completed']);
    expect((await call('PATCH', `/networks/${n}/webhooks/${hookId}`, { status: 'disabled' })).status).toBe(200);
    const before = hooks.receiver.received.length;
    await call('POST', `/networks/${n}/podcasts/${podcastId}/opt-in`);
    await new Promise((r) => setTimeout(r, 1000));
    expect(hooks.receiver.received.length).toBe(before);
  });

  it('pauses a delivery left pending by disabling, and resumes it when the subscription is enabled again', async () => {
    const { n, podcastId, hookId } = await networkWithHook(['optin.completed']);
    const before = hooks.receiver.received.length;
    // The first attempt hangs; the subscription is disabled while it is in flight, so its retry finds it disabled.
    hooks.receiver.respondWith((_, count) => (count - before === 1 ? 'hang' : 200));
    await call('POST', `/networks/${n}/podcasts/${podcastId}/opt-in`);
    const first = await until(() => hooks.receiver.received[before]);
    expect((await call('PATCH', `/networks/${n}/webhooks/${hookId}`, { status: 'disabled' })).status).toBe(200);
    const deliveryId = String(first.headers['x-service-delivery']);
    const delivery = () => call<{ status: string; attempts: unknown[] }>('GET', `/networks/${n}/webhooks/${hookId}/deliveries/${deliveryId}`);
    await until(async () => ((await delivery()).body.attempts.length === 1 ? true : undefined));
    await new Promise((r) => setTimeout(r, 1000));
    expect(hooks.receiver.received.length - before).toBe(1);
    expect((await delivery()).body.status).toBe('pending');

    expect((await call('PATCH', `/networks/${n}/webhooks/${hookId}`, { status: 'active' })).status).toBe(200);
    const resumed = await until(() => hooks.receiver.received[before + 1]);
    expect(resumed.headers['x-service-delivery']).toBe(deliveryId);
    expect(resumed.raw.equals(first.raw)).toBe(true);
    await until(async () => ((await delivery()).body.status === 'succeeded' ? true : undefined));
  });

  it('records the attempt of a receiver that answers with NUL bytes and an absurd Retry-After, and schedules the retry', async () => {
    const odd = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(503, { 'Retry-After': '8640000000000' }).end(Buffer.from('busy\0\0 try later')));
    });
    await new Promise<void>((resolve) => odd.listen(0, '127.0.0.1', resolve));
    try {
      const n = (await call<{ id: string }>('POST', '/networks', { name: 'Odd receiver' })).body.id;
      const url = `http://127.0.0.1:${(odd.address() as AddressInfo).port}/hooks`;
      const hook = await call<{ id: string }>('POST', `/networks/${n}/webhooks`, { url, events: ['optin.completed'] });
      const pod = await call<{ id: string }>('POST', `/networks/${n}/podcasts`, { name: 'Pod', host_name: 'Sam' });
      await call('POST', `/networks/${n}/podcasts/${pod.body.id}/opt-in`);
      type Detail = { status: string; next_attempt_at: string | null; attempts: Array<{ status_code: number | null; response_body: string | null }> };
      const detail = await until(async () => {
        const list = await call<{ items: Array<{ id: string }> }>('GET', `/networks/${n}/webhooks/${hook.body.id}/deliveries`);
        const id = list.body.items[0]?.id;
        if (!id) return undefined;
        const d = await call<Detail>('GET', `/networks/${n}/webhooks/${hook.body.id}/deliveries/${id}`);
        return d.body.attempts.length > 0 ? d.body : undefined;
      });
      expect(detail.attempts[0]).toMatchObject({ status_code: 503, response_body: 'busy\uFFFD\uFFFD try later' });
      expect(detail.status).toBe('pending');
      const next = new Date(detail.next_attempt_at!).getTime();
      expect(next - Date.now()).toBeLessThanOrEqual(24 * 3600 * 1000 + 5000);
    } finally {
      odd.close();
    }
  });

  it('after a secret rotation signs with both secrets for 24 h, new first', async () => {
    hooks.receiver.respondWith(() => 200);
    const { n, podcastId, hookId } = await networkWithHook(['optin.completed']);
    const oldSecret = hooks.secret;
    const rotated = await call<{ secret: string }>('POST', `/networks/${n}/webhooks/${hookId}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(oldSecret);
    // The receiver still has the old secret: the delivery must verify with it…
    const before = hooks.receiver.received.length;
    await call('POST', `/networks/${n}/podcasts/${podcastId}/opt-in`);
    const got = await until(() => hooks.receiver.received[before]);
    expect(got.verified).toBe(true);
    const signatures = String(got.headers['x-service-signature']).split(',');
    expect(signatures).toHaveLength(2);
    // …and with the new one, which comes first.
    expect(await verify(rotated.body.secret, got.raw.toString(), `sha256=${signatures[0]}`)).toBe(true);
    expect(await verify(oldSecret, got.raw.toString(), `sha256=${signatures[1]}`)).toBe(true);
    const hook = await call<{ secret_rotation_ends_at: string }>('GET', `/networks/${n}/webhooks/${hookId}`);
    expect(Date.parse(hook.body.secret_rotation_ends_at) - Date.now()).toBeGreaterThan(23 * 3600 * 1000);
  });

  it('the verification snippets of docs/webhooks.md (TypeScript, Python, shell) accept a real delivery and refuse a tampered one', async () => {
    hooks.receiver.respondWith(() => 200);
    const { n, podcastId } = await networkWithHook(['optin.completed']);
    const before = hooks.receiver.received.length;
    await call('POST', `/networks/${n}/podcasts/${podcastId}/opt-in`);
    const got = await until(() => hooks.receiver.received[before]);
    const header = String(got.headers['x-service-signature']);
    const docs = readFileSync(path.join(ROOT, 'docs/webhooks.md'), 'utf8');
    const block = (lang: string, containing: string) =>
      [...docs.matchAll(/```(\w+)\n([\s\S]*?)```/g)].find((m) => m[1] === lang && m[2]!.includes(containing))![2]!;
    const dir = mkdtempSync(path.join(tmpdir(), 'hook-docs-'));
    try {
      for (const [name, raw] of [
        ['real', got.raw],
        ['tampered', Buffer.concat([got.raw, Buffer.from(' ')])],
      ] as const) {
        writeFileSync(path.join(dir, 'body.json'), raw);
        const env = { ...process.env, SECRET: hooks.secret, SIGNATURE: header };

        writeFileSync(
          path.join(dir, 'verify.ts'),
          `${block('ts', 'verifyDelivery')}\nimport { readFileSync } from 'node:fs';\nconsole.log(verifyDelivery(readFileSync('body.json'), process.env.SIGNATURE!, process.env.SECRET!));\n`,
        );
        const ts = spawnSync(path.join(ROOT, 'node_modules/.bin/tsx'), ['verify.ts'], { cwd: dir, env, encoding: 'utf8' });
        expect(ts.stdout.trim(), `ts ${name}: ${ts.stderr}`).toBe(name === 'real' ? 'true' : 'false');

        writeFileSync(
          path.join(dir, 'verify.py'),
          `${block('python', 'verify_delivery')}\nimport os\nprint(verify_delivery(open("body.json", "rb").read(), os.environ["SIGNATURE"], os.environ["SECRET"]))\n`,
        );
        const py = spawnSync('python3', ['verify.py'], { cwd: dir, env, encoding: 'utf8' });
        expect(py.stdout.trim(), `python ${name}: ${py.stderr}`).toBe(name === 'real' ? 'True' : 'False');

        writeFileSync(path.join(dir, 'verify.sh'), block('sh', 'openssl dgst'));
        const sh = spawnSync('bash', ['verify.sh'], { cwd: dir, env, encoding: 'utf8' });
        expect(sh.stdout.trim(), `sh ${name}: ${sh.stderr}`).toBe(name === 'real' ? 'valid' : 'invalid');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** What a subscriber using the official library does: verify the raw body with the three webhook-* headers. */
function verifiedBy(whsec: string, r: Pick<Received, 'raw' | 'headers'>): unknown {
  const headers = Object.fromEntries(['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, String(r.headers[h] ?? '')]));
  return new Webhook(whsec).verify(r.raw.toString(), headers);
}

/**
 * Standard Webhooks headers (standardwebhooks.com) on real deliveries, verified by the official
 * `standardwebhooks` npm package, beside the spec's X-Service-* headers.
 */
describe('Standard Webhooks headers', () => {
  it('every attempt carries webhook-id (the delivery id), this attempt’s webhook-timestamp and a v1 signature the standardwebhooks package accepts', async () => {
    const { n, podcastId } = await networkWithHook(['optin.completed']);
    const emit = () => call('POST', `/networks/${n}/podcasts/${podcastId}/opt-in`);
    const before = hooks.receiver.received.length;
    hooks.receiver.respondWith((_, count) => (count - before === 1 ? 500 : 200));
    const t0 = Math.floor(Date.now() / 1000);
    await emit();
    await until(() => (hooks.receiver.received.length - before >= 2 ? true : undefined));
    const attempts = hooks.receiver.received.slice(before, before + 2);
    for (const got of attempts) {
      // The spec's headers stay exactly as they are.
      expect(got.verified).toBe(true);
      expect(got.headers['x-service-signature']).toMatch(/^[0-9a-f]{64}$/);
      expect(got.headers['webhook-id']).toBe(got.headers['x-service-delivery']);
      expect(got.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
      const ts = Number(got.headers['webhook-timestamp']);
      expect(ts).toBeGreaterThanOrEqual(t0 - 1);
      expect(ts).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 1);
      expect(verifiedBy(hooks.secret, got)).toEqual(JSON.parse(got.raw.toString()));
    }
    // The library refuses what it should: other bytes, another id, a replay outside its 5-minute tolerance, another secret.
    const [got] = attempts;
    expect(() => verifiedBy(hooks.secret, { ...got!, raw: Buffer.concat([got!.raw, Buffer.from(' ')]) })).toThrow();
    expect(() => verifiedBy(hooks.secret, { ...got!, headers: { ...got!.headers, 'webhook-id': '00000000-0000-4000-8000-000000000000' } })).toThrow();
    const old = String(Number(got!.headers['webhook-timestamp']) - 600);
    expect(() => verifiedBy(hooks.secret, { ...got!, headers: { ...got!.headers, 'webhook-timestamp': old } })).toThrow();
    expect(() => verifiedBy(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, got!)).toThrow();
  });

  it('during a secret rotation carries two v1 signatures: a receiver on the old secret and one on the new both verify', async () => {
    hooks.receiver.respondWith(() => 200);
    const { n, hookId, podcastId } = await networkWithHook(['optin.completed']);
    const emit = () => call('POST', `/networks/${n}/podcasts/${podcastId}/opt-in`);
    const oldSecret = hooks.secret;
    const rotated = await call<{ secret: string }>('POST', `/networks/${n}/webhooks/${hookId}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const before = hooks.receiver.received.length;
    await emit();
    const got = await until(() => hooks.receiver.received[before]);
    const signatures = String(got.headers['webhook-signature']).split(' ');
    expect(signatures).toHaveLength(2);
    expect(signatures.every((s) => s.startsWith('v1,'))).toBe(true);
    expect(verifiedBy(oldSecret, got)).toEqual(JSON.parse(got.raw.toString()));
    expect(verifiedBy(rotated.body.secret, got)).toEqual(JSON.parse(got.raw.toString()));
    // The new secret's signature comes first, as in X-Service-Signature.
    const single = (s: string) => ({ ...got, headers: { ...got.headers, 'webhook-signature': s } });
    expect(verifiedBy(rotated.body.secret, single(signatures[0]!))).toBeTruthy();
    expect(verifiedBy(oldSecret, single(signatures[1]!))).toBeTruthy();
  });
});
