import { randomUUID } from 'node:crypto';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '@/db/client';
import { EVENT_TYPE_NAMES } from '@/domain/events';
import { checkFlightPacing } from '@/server/services/flights/pacing-alerts';
import { adInventoryOverHttp, api, grantVoiceConsentOverHttp, type Page } from '@/tests/support/api';
import { startFakeVoiceVendor } from '@/tests/support/fake-voice-vendor';
import { useOwnServer } from '@/tests/support/own-server';
import { until } from '@/tests/support/until';

/**
 * The event catalog (GET /event-types) checked against every event a full flow records, on a
 * server of our own whose fake voice vendor can be made to fail (for creative.failed).
 */
let vendor: Awaited<ReturnType<typeof startFakeVoiceVendor>>;
beforeAll(async () => {
  vendor = await startFakeVoiceVendor();
});
afterAll(async () => {
  await vendor?.close();
});

const own = useOwnServer('catalog', () => ({
  SYNTH_PROVIDER: 'http',
  SYNTH_TEST_NETWORKS: 'provider', // every network is a test network under APP_ENV=test
  SYNTH_BASE_URL: vendor.url,
  SYNTH_API_KEY: 'vendor-secret',
  SYNTH_MAX_RETRIES: '0',
  SYNTH_JOB_MAX_ATTEMPTS: '1',
}));
const call = own.call;

describe('event catalog', () => {
  it('every example validates against its data schema', async () => {
    const res = await call<{ items: Array<{ type: string; description: string; data_schema: object; example: { type: string; data: unknown } }> }>(
      'GET',
      '/event-types',
    );
    expect(res.status).toBe(200);
    expect(res.body.items.map((i) => i.type)).toEqual(EVENT_TYPE_NAMES);
    const ajv = new Ajv2020({ strict: false });
    for (const item of res.body.items) {
      expect(item.description.length).toBeGreaterThan(0);
      expect(item.example.type).toBe(item.type);
      expect(ajv.validate(item.data_schema, item.example.data), `${item.type}: ${ajv.errorsText()}`).toBe(true);
      // The schemas are strict: a field the catalog does not name is refused.
      expect(ajv.validate(item.data_schema, { ...(item.example.data as object), surprise: 1 })).toBe(false);
    }
  });

  it('every event a full flow records (every type of the catalog) matches its published schema', async () => {
    const n = (await call<{ id: string }>('POST', '/networks', { name: 'Catalog flow' })).body.id;
    const { campaignId, podcastId } = await adInventoryOverHttp(call, n);
    // The host grants their voice (voice_consent.granted): creatives are synthesized from then on.
    const { consentId } = await grantVoiceConsentOverHttp(call, n, podcastId, { baseUrl: own.server.url });
    const offer = () => call<{ id: string }>('POST', `/networks/${n}/offers`, { campaign_id: campaignId, podcast_id: podcastId });
    const creativeSettled = (id: string) =>
      until(async () => {
        const c = await call<{ status: string }>('GET', `/networks/${n}/creatives/${id}`);
        return c.body.status === 'generating' ? undefined : c.body.status;
      }, 60_000);

    vendor.setMode('ok');
    const good = await call<{ creative_id: string }>('POST', `/networks/${n}/offers/${(await offer()).body.id}/accept`);
    expect(good.status).toBe(200);
    expect(await creativeSettled(good.body.creative_id)).toBe('pending_approval');
    // Reviewed by an administrator on the host's behalf: one approved, one sent back with changes.
    expect((await call('POST', `/networks/${n}/creatives/${good.body.creative_id}/approve`)).status).toBe(200);
    const second = await call<{ creative_id: string }>('POST', `/networks/${n}/offers/${(await offer()).body.id}/accept`);
    expect(await creativeSettled(second.body.creative_id)).toBe('pending_approval');
    const changes = await call('POST', `/networks/${n}/creatives/${second.body.creative_id}/request-changes`, { comment: 'Slower, please.' });
    expect(changes.status, changes.text).toBe(201);
    vendor.setMode('reject');
    const bad = await call<{ creative_id: string }>('POST', `/networks/${n}/offers/${(await offer()).body.id}/accept`);
    expect(await creativeSettled(bad.body.creative_id)).toBe('failed');
    vendor.setMode('ok');
    expect((await call('POST', `/networks/${n}/offers/${(await offer()).body.id}/reject`, { reason: 'Not now.' })).status).toBe(200);
    expect((await call('POST', `/networks/${n}/offers/${(await offer()).body.id}/reject`)).status).toBe(200);
    const invitation = await call<{ token: string }>('POST', `/networks/${n}/invitations`, {
      email: `cat-${randomUUID()}@example.com`,
      role: 'read_only',
    });
    expect(invitation.status).toBe(201);
    expect((await api('POST', '/invitations/accept', { token: invitation.body.token, baseUrl: own.server.url, body: { name: 'Alex' } })).status).toBe(
      201,
    );
    // Revoked: the creatives made under it are withdrawn (voice_consent.revoked names them).
    expect((await call('POST', `/networks/${n}/voice-consents/${consentId}/revoke`)).status).toBe(200);
    // The daily pacing check: a flight behind pace (flight.underdelivering), one whose goal its tracking URL reached (flight.goal_reached).
    const flight = async (goal: number, startedAgo: number) =>
      (
        await call<{ id: string }>('POST', `/networks/${n}/campaigns/${campaignId}/flights`, {
          name: 'Pre-roll',
          starts_at: new Date(Date.now() - startedAgo).toISOString(),
          ends_at: new Date(Date.now() + 5 * 86_400_000).toISOString(),
          placement: 'pre',
          pricing: { model: 'cpm', amount_cents: 2500, currency: 'USD' },
          impression_goal: goal,
        })
      ).body.id;
    await flight(1_000, 5 * 86_400_000);
    const booked = await call<{ id: string }>('POST', `/networks/${n}/offers`, { flight_id: await flight(1, 60_000), podcast_id: podcastId });
    const tracking = await call<{ tracking_url: string }>('POST', `/networks/${n}/offers/${booked.body.id}/accept`);
    const hit = await fetch(`${own.server.url}${new URL(tracking.body.tracking_url.replace(/[{}]/g, encodeURIComponent)).pathname}?episode=ep-1`, {
      headers: { 'user-agent': 'AppleCoreMedia/1.0.0.21E236 (iPhone; U; CPU OS 17_4 like Mac OS X; en_us)' },
    });
    expect(hit.status).toBe(204);
    const cron = connect(own.databaseUrl, { max: 1 });
    try {
      expect(await checkFlightPacing({ db: cron.db })).toEqual({ goalReached: 1, underdelivering: 1 });
    } finally {
      await cron.close();
    }

    const catalog = await call<{ items: Array<{ type: string; data_schema: object }> }>('GET', '/event-types');
    const ajv = new Ajv2020({ strict: false });
    const validators = new Map(catalog.body.items.map((i) => [i.type, ajv.compile(i.data_schema)]));
    const recorded = await call<Page<{ type: string; data: unknown }>>('GET', `/networks/${n}/events?limit=200`);
    expect(new Set(recorded.body.items.map((e) => e.type))).toEqual(new Set(EVENT_TYPE_NAMES));
    for (const event of recorded.body.items) {
      const validate = validators.get(event.type)!;
      expect(validate(event.data), `${event.type} ${JSON.stringify(event.data)}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }
  });
});
