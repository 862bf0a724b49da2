import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { auditLog, webhooks } from '@/db/schema';
import { EVENT_TYPE_NAMES } from '@/domain/events';
import { api, type Page, type Problem } from '@/tests/support/api';
import { networkWithKeys, personKey, useTestDatabase } from '@/tests/support/fixtures';

useTestDatabase();

interface Webhook {
  id: string;
  network_id: string;
  url: string;
  events: string[];
  description: string | null;
  status: 'active' | 'disabled';
  disabled_reason: string | null;
  secret_rotation_ends_at: string | null;
  version: number;
  created_at: string;
  updated_at: string;
  secret?: string;
}

/** The shared test server runs without WEBHOOK_ALLOW_PRIVATE and has no DNS: a public IP literal (no request is made at creation). */
const PUBLIC_URL = 'https://93.184.216.10/hooks';

type Net = Awaited<ReturnType<typeof networkWithKeys>>;

async function createWebhook(n: Net, body: Record<string, unknown> = {}) {
  const res = await api<Webhook>('POST', `/networks/${n.id}/webhooks`, {
    token: n.admin,
    body: { url: PUBLIC_URL, events: ['offer.accepted'], ...body },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function auditRows(targetId: string) {
  return database().select().from(auditLog).where(eq(auditLog.targetId, targetId));
}

describe('creating and reading webhook subscriptions', () => {
  it('creates with 201, ETag and a whsec_ secret shown once', async () => {
    const n = await networkWithKeys();
    const res = await api<Webhook>('POST', `/networks/${n.id}/webhooks`, {
      token: n.admin,
      body: { url: PUBLIC_URL, events: ['offer.accepted', 'creative.ready'], description: 'Ops listener' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('etag')).toBe('"1"');
    expect(res.body).toEqual({
      id: expect.stringMatching(/^whk_[0-9a-z]{26}$/),
      network_id: n.id,
      url: PUBLIC_URL,
      events: ['offer.accepted', 'creative.ready'],
      description: 'Ops listener',
      status: 'active',
      disabled_reason: null,
      secret_rotation_ends_at: null,
      version: 1,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(Buffer.from(res.body.secret!.slice('whsec_'.length), 'base64')).toHaveLength(32);

    const got = await api<Webhook>('GET', `/networks/${n.id}/webhooks/${res.body.id}`, { token: n.admin });
    expect(got.status).toBe(200);
    expect(got.headers.get('etag')).toBe('"1"');
    const { secret: _secret, ...withoutSecret } = res.body;
    expect(got.body).toEqual(withoutSecret);
    expect(got.text).not.toContain('whsec_');

    const list = await api<Page<Webhook>>('GET', `/networks/${n.id}/webhooks`, { token: n.admin });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      items: [{ ...withoutSecret, health: { last_delivery: null, success_rate_24h: null, attempted_24h: 0 } }],
      next_cursor: null,
    });
    expect(list.text).not.toContain('whsec_');
  });

  it('stores only the sealed secret, never the plain text', async () => {
    const n = await networkWithKeys();
    const created = await createWebhook(n);
    const [row] = await database().select().from(webhooks).where(eq(webhooks.id, created.id));
    expect(row).toBeDefined();
    expect(row!.secretSealed).not.toContain('whsec_');
    expect(row!.secretSealed).not.toContain(created.secret!.slice('whsec_'.length));
    expect(row!.secretSealed).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain(created.secret);
  });

  it('replays a creation with the same Idempotency-Key (same subscription, same secret, one row)', async () => {
    const n = await networkWithKeys();
    const key = `wh-${Date.now()}-${Math.random()}`;
    const send = () =>
      api<Webhook>('POST', `/networks/${n.id}/webhooks`, {
        token: n.admin,
        headers: { 'idempotency-key': key },
        body: { url: PUBLIC_URL, events: ['offer.accepted'] },
      });
    const first = await send();
    const again = await send();
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const list = await api<Page<Webhook>>('GET', `/networks/${n.id}/webhooks`, { token: n.admin });
    expect(list.body.items).toHaveLength(1);
  });

  it('accepts every known event type and pages the list by id', async () => {
    const n = await networkWithKeys();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createWebhook(n, { events: [...EVENT_TYPE_NAMES] })).id);
    const first = await api<Page<Webhook>>('GET', `/networks/${n.id}/webhooks?limit=2`, { token: n.admin });
    expect(first.status).toBe(200);
    expect(first.body.items.map((w) => w.id)).toEqual(ids.sort().slice(0, 2));
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await api<Page<Webhook>>('GET', `/networks/${n.id}/webhooks?limit=2&cursor=${first.body.next_cursor}`, { token: n.admin });
    expect(second.body.items.map((w) => w.id)).toEqual(ids.slice(2));
    expect(second.body.next_cursor).toBeNull();
  });
});

describe('authorization', () => {
  it('answers 403 to read_only keys on every webhook endpoint, GET included', async () => {
    const n = await networkWithKeys();
    const hook = await createWebhook(n);
    const base = `/networks/${n.id}/webhooks`;
    const calls: Array<[string, string, unknown]> = [
      ['GET', base, undefined],
      ['POST', base, { url: PUBLIC_URL, events: ['offer.accepted'] }],
      ['GET', `${base}/${hook.id}`, undefined],
      ['PATCH', `${base}/${hook.id}`, { status: 'disabled' }],
      ['DELETE', `${base}/${hook.id}`, undefined],
    ];
    for (const [method, path, body] of calls) {
      const res = await api<Problem>(method, path, { token: n.reader, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.text).not.toContain('whsec_');
    }
    const still = await api<Webhook>('GET', `${base}/${hook.id}`, { token: n.admin });
    expect(still.body).toMatchObject({ status: 'active', version: 1 });
  });
});

describe('validation', () => {
  it.each([
    ['missing url', { events: ['offer.accepted'] }, 'url'],
    ['missing events', { url: PUBLIC_URL }, 'events'],
    ['empty events', { url: PUBLIC_URL, events: [] }, 'events'],
    ['unknown event type', { url: PUBLIC_URL, events: ['offer.accepted', 'offer.exploded'] }, 'events.1'],
    ['duplicate event types', { url: PUBLIC_URL, events: ['offer.accepted', 'offer.accepted'] }, 'events'],
    ['events not an array', { url: PUBLIC_URL, events: 'offer.accepted' }, 'events'],
    ['non-http URL', { url: 'ftp://93.184.216.34/x', events: ['offer.accepted'] }, 'url'],
    ['not a URL', { url: 'hooks here', events: ['offer.accepted'] }, 'url'],
    ['description too long', { url: PUBLIC_URL, events: ['offer.accepted'], description: 'x'.repeat(501) }, 'description'],
    ['unknown field', { url: PUBLIC_URL, events: ['offer.accepted'], secret: 'whsec_mine' }, '(body)'],
  ])('answers 400 for %s, naming the field', async (_name, body, path) => {
    const n = await networkWithKeys();
    const res = await api<Problem>('POST', `/networks/${n.id}/webhooks`, { token: n.admin, body });
    expect(res.status, res.text).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(res.body.errors?.map((e) => e.path)).toContain(path);
    const list = await api<Page<Webhook>>('GET', `/networks/${n.id}/webhooks`, { token: n.admin });
    expect(list.body.items).toEqual([]);
  });

  it.each([
    'http://127.0.0.1:9/x',
    'http://10.0.0.1/',
    'http://169.254.169.254/latest',
    'http://localhost/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
  ])('refuses the private target %s with 400 (SSRF)', async (url) => {
    const n = await networkWithKeys();
    const res = await api<Problem>('POST', `/networks/${n.id}/webhooks`, { token: n.admin, body: { url, events: ['offer.accepted'] } });
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors).toEqual([{ path: 'url', message: expect.any(String) }]);
    expect(res.body.detail).toMatch(/public address/);
    // Outside live mode the refusal names the setting for local development, in the detail and
    // in the field message the console's dialog shows under the URL.
    expect(res.body.detail).toContain('WEBHOOK_ALLOW_PRIVATE=1');
    expect(res.body.errors?.[0]?.message).toContain('WEBHOOK_ALLOW_PRIVATE=1');
  });

  it('re-checks the URL on PATCH', async () => {
    const n = await networkWithKeys();
    const hook = await createWebhook(n);
    const res = await api<Problem>('PATCH', `/networks/${n.id}/webhooks/${hook.id}`, {
      token: n.admin,
      body: { url: 'http://169.254.169.254/latest' },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors?.[0]?.path).toBe('url');
    const got = await api<Webhook>('GET', `/networks/${n.id}/webhooks/${hook.id}`, { token: n.admin });
    expect(got.body).toMatchObject({ url: PUBLIC_URL, version: 1 });
  });
});

describe('updating, disabling and deleting', () => {
  it('updates with If-Match or body version; a stale version is 409', async () => {
    const n = await networkWithKeys();
    const hook = await createWebhook(n);
    const path = `/networks/${n.id}/webhooks/${hook.id}`;
    const first = await api<Webhook>('PATCH', path, {
      token: n.admin,
      headers: { 'if-match': '"1"' },
      body: { url: 'https://93.184.216.11/other', events: ['creative.ready', 'creative.failed'], description: 'New' },
    });
    expect(first.status, first.text).toBe(200);
    expect(first.headers.get('etag')).toBe('"2"');
    expect(first.body).toMatchObject({
      url: 'https://93.184.216.11/other',
      events: ['creative.ready', 'creative.failed'],
      description: 'New',
      version: 2,
    });
    expect(first.text).not.toContain('whsec_');

    const stale = await api<Problem>('PATCH', path, { token: n.admin, headers: { 'if-match': '"1"' }, body: { description: 'Lost' } });
    expect(stale.status).toBe(409);
    const staleBody = await api<Problem>('PATCH', path, { token: n.admin, body: { description: 'Lost', version: 1 } });
    expect(staleBody.status).toBe(409);

    const second = await api<Webhook>('PATCH', path, { token: n.admin, body: { description: null, version: 2 } });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ description: null, version: 3 });

    const badEvents = await api<Problem>('PATCH', path, { token: n.admin, body: { events: [] } });
    expect(badEvents.status).toBe(400);
    const badStatus = await api<Problem>('PATCH', path, { token: n.admin, body: { status: 'paused' } });
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.errors?.[0]?.path).toBe('status');
  });

  it('disables and re-enables (enabling clears disabled_reason)', async () => {
    const n = await networkWithKeys();
    const hook = await createWebhook(n);
    const path = `/networks/${n.id}/webhooks/${hook.id}`;
    const off = await api<Webhook>('PATCH', path, { token: n.admin, body: { status: 'disabled' } });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ status: 'disabled', version: 2 });

    // As if delivery had disabled it with a reason.
    await database().update(webhooks).set({ disabledReason: 'Endpoint kept failing.' }).where(eq(webhooks.id, hook.id));
    const seen = await api<Webhook>('GET', path, { token: n.admin });
    expect(seen.body.disabled_reason).toBe('Endpoint kept failing.');

    const on = await api<Webhook>('PATCH', path, { token: n.admin, headers: { 'if-match': '"2"' }, body: { status: 'active' } });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ status: 'active', disabled_reason: null, version: 3 });
  });

  it('soft-deletes: 200 with the subscription, then 404 everywhere and hidden from the list', async () => {
    const n = await networkWithKeys();
    const keep = await createWebhook(n);
    const hook = await createWebhook(n);
    const path = `/networks/${n.id}/webhooks/${hook.id}`;
    const stale = await api<Problem>('DELETE', path, { token: n.admin, headers: { 'if-match': '"7"' } });
    expect(stale.status).toBe(409);

    const del = await api<Webhook>('DELETE', path, { token: n.admin, headers: { 'if-match': '"1"' } });
    expect(del.status, del.text).toBe(200);
    expect(del.body).toMatchObject({ id: hook.id, url: PUBLIC_URL });
    expect(del.text).not.toContain('whsec_');

    expect((await api('GET', path, { token: n.admin })).status).toBe(404);
    expect((await api('PATCH', path, { token: n.admin, body: { status: 'disabled' } })).status).toBe(404);
    expect((await api('DELETE', path, { token: n.admin })).status).toBe(404);
    const list = await api<Page<Webhook>>('GET', `/networks/${n.id}/webhooks`, { token: n.admin });
    expect(list.body.items.map((w) => w.id)).toEqual([keep.id]);

    const [row] = await database().select().from(webhooks).where(eq(webhooks.id, hook.id));
    expect(row!.deletedAt).toBeInstanceOf(Date);
  });

  it('answers 404 for an unknown id and for another network’s subscription', async () => {
    const a = await networkWithKeys();
    const b = await networkWithKeys();
    const hookOfB = await createWebhook(b);
    expect((await api('GET', `/networks/${a.id}/webhooks/whk_00000000000000000000000000`, { token: a.admin })).status).toBe(404);
    const adminOfBoth = (
      await personKey([
        { networkId: a.id, role: 'administrator' },
        { networkId: b.id, role: 'administrator' },
      ])
    ).token;
    expect((await api('GET', `/networks/${a.id}/webhooks/${hookOfB.id}`, { token: adminOfBoth })).status).toBe(404);
  });
});

describe('audit', () => {
  it('records created, updated and deleted, never the secret', async () => {
    const n = await networkWithKeys();
    const hook = await createWebhook(n, { events: ['offer.accepted', 'offer.rejected'] });
    const path = `/networks/${n.id}/webhooks/${hook.id}`;
    expect((await api('PATCH', path, { token: n.admin, body: { status: 'disabled' } })).status).toBe(200);
    expect((await api('DELETE', path, { token: n.admin })).status).toBe(200);

    const rows = await auditRows(hook.id);
    expect(rows.map((r) => r.action).sort()).toEqual(['webhook.created', 'webhook.deleted', 'webhook.updated']);
    for (const row of rows) {
      expect(row).toMatchObject({ networkId: n.id, targetType: 'webhook', targetId: hook.id, actorKeyId: expect.any(String) });
      expect(JSON.stringify(row.data)).not.toContain('whsec_');
      expect(JSON.stringify(row.data)).not.toContain(hook.secret!.slice('whsec_'.length));
    }
    const created = rows.find((r) => r.action === 'webhook.created')!;
    expect(created.data).toMatchObject({ url: PUBLIC_URL, events: ['offer.accepted', 'offer.rejected'], status: 'active' });
    const updated = rows.find((r) => r.action === 'webhook.updated')!;
    expect(updated.data).toMatchObject({ status: 'disabled', changed: ['status'] });
  });
});
