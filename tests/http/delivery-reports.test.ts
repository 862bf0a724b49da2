/**
 * Host-reported delivery (docs/measurement.md, "Reported delivery"): an accepted offer's
 * impressions per UTC day and source, sent as JSON (one report, or `reports`) or as a `text/csv`
 * body; a later report for a day and source replaces the earlier one; `GET …/delivery` shows both
 * counts per day, labelled tracked and reported.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { addDays, utcDay } from '@/server/services/tracking/hit-rules';
import { api, expectProblem } from '@/tests/support/api';
import { adInventory, networkWithKeys, offerRow, useTestDatabase } from '@/tests/support/fixtures';

useTestDatabase();

interface Report {
  date: string;
  source: string;
  impressions: number;
  reported_at: string;
}
interface Day {
  date: string;
  tracked: { impressions: number; hits: number; bots: number; duplicates: number; abnormal: number };
  reported: { impressions: number | null; sources: Array<Omit<Report, 'date'>> };
}
interface Delivery {
  offer_id: string;
  from: string;
  to: string;
  totals: { tracked_impressions: number; reported_impressions: number | null };
  days: Day[];
}

const today = utcDay(Date.now());
const yesterday = addDays(today, -1);

/** A network, and an offer accepted over /v1 (so it has its tracking URL): the admin's and a reader's tokens. */
async function acceptedOffer() {
  const { id: n, admin, reader } = await networkWithKeys();
  const inventory = await adInventory(n);
  const offer = await api<{ id: string }>('POST', `/networks/${n}/offers`, {
    token: admin,
    body: { campaign_id: inventory.campaign.id, podcast_id: inventory.podcast.id },
  });
  const accepted = await api<{ tracking_url: string }>('POST', `/networks/${n}/offers/${offer.body.id}/accept`, { token: admin });
  expect(accepted.status, accepted.text).toBe(200);
  const path = `/networks/${n}/offers/${offer.body.id}`;
  return { n, admin, reader, inventory, offerId: offer.body.id, path, trackingUrl: accepted.body.tracking_url };
}

const report = (token: string, path: string, body: unknown) =>
  api<{ offer_id: string; reports: Report[] }>('POST', `${path}/delivery-reports`, { token, body });
const reportCsv = (token: string, path: string, csv: string, type = 'text/csv') =>
  api<{ offer_id: string; reports: Report[] }>('POST', `${path}/delivery-reports`, { token, rawBody: csv, headers: { 'content-type': type } });
const delivery = (token: string, path: string, query = '') => api<Delivery>('GET', `${path}/delivery${query}`, { token });

describe('host-reported delivery', () => {
  it('takes one report as JSON, and a later one for the same day and source replaces it', async () => {
    const s = await acceptedOffer();
    const first = await report(s.admin, s.path, { date: yesterday, impressions: 1200, source: 'megaphone' });
    expect(first.status, first.text).toBe(200);
    expect(first.body.reports).toEqual([{ date: yesterday, source: 'megaphone', impressions: 1200, reported_at: expect.any(String) }]);
    expect((await report(s.admin, s.path, { date: yesterday, impressions: 1180, source: 'megaphone' })).status).toBe(200);
    expect((await report(s.admin, s.path, { date: yesterday, impressions: 40, source: 'host-export' })).status).toBe(200);
    const read = await delivery(s.reader, s.path, `?from=${yesterday}&to=${today}`);
    expect(read.status, read.text).toBe(200);
    expect(read.body.days.map((d) => [d.date, d.reported.impressions, d.reported.sources.map((r) => [r.source, r.impressions])])).toEqual([
      [
        yesterday,
        1220,
        [
          ['host-export', 40],
          ['megaphone', 1180],
        ],
      ],
      [today, null, []],
    ]);
    expect(read.body.totals.reported_impressions).toBe(1220);
  });

  it('takes many days as a text/csv body (a header line or none), and shows tracked and reported side by side', async () => {
    const s = await acceptedOffer();
    const csv = `date,impressions,source\r\n${yesterday},300,acast\r\n${today},"120",acast\r\n\r\n`;
    const sent = await reportCsv(s.admin, s.path, csv);
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body.reports.map((r) => [r.date, r.impressions])).toEqual([
      [yesterday, 300],
      [today, 120],
    ]);
    expect((await reportCsv(s.admin, s.path, `${today},125,acast\n`)).status).toBe(200); // no header: the columns in order
    // Three listeners' apps call the tracking URL today (the service's own counting).
    const url = new URL(s.trackingUrl);
    const base = inject('baseUrl');
    for (const episode of ['ep-1', 'ep-2', 'ep-2']) {
      const hit = await fetch(`${base}${url.pathname}?episode=${episode}`, {
        headers: { 'user-agent': 'AppleCoreMedia/1.0.0.21E236 (iPhone; U; CPU OS 17_4 like Mac OS X; en_us)' },
      });
      expect(hit.status).toBe(204);
    }
    const read = await delivery(s.admin, s.path, `?from=${yesterday}`);
    expect(read.body.to).toBe(today);
    expect(read.body.days).toEqual([
      {
        date: yesterday,
        tracked: { impressions: 0, hits: 0, bots: 0, duplicates: 0, abnormal: 0 },
        reported: { impressions: 300, sources: [{ source: 'acast', impressions: 300, reported_at: expect.any(String) }] },
      },
      {
        date: today,
        tracked: { impressions: 2, hits: 3, bots: 0, duplicates: 1, abnormal: 0 },
        reported: { impressions: 125, sources: [{ source: 'acast', impressions: 125, reported_at: expect.any(String) }] },
      },
    ]);
    expect(read.body.totals).toEqual({ tracked_impressions: 2, reported_impressions: 425 });
    // By default from the day the offer was accepted (today) to today.
    expect((await delivery(s.reader, s.path)).body.days.map((d) => d.date)).toEqual([today]);
  });

  it('refuses a bad report with 400 on the field at fault, and nothing of the request is kept', async () => {
    const s = await acceptedOffer();
    const cases: Array<[unknown, string]> = [
      [{ date: '2026-02-30', impressions: 1, source: 'megaphone' }, 'date'],
      [{ date: yesterday, impressions: -1, source: 'megaphone' }, 'impressions'],
      [{ date: yesterday, impressions: 1.5, source: 'megaphone' }, 'impressions'],
      [{ date: yesterday, impressions: 1, source: 'Megaphone!' }, 'source'],
      [{ date: yesterday, impressions: 1 }, 'date'],
      [{ date: yesterday, impressions: 1, source: 'a', reports: [{ date: yesterday, impressions: 1, source: 'a' }] }, 'reports'],
      [{ date: addDays(today, -10), impressions: 1, source: 'megaphone' }, 'date'],
      [{ date: addDays(today, 2), impressions: 1, source: 'megaphone' }, 'date'],
      [
        {
          reports: [
            { date: yesterday, impressions: 1, source: 'a' },
            { date: yesterday, impressions: 2, source: 'a' },
          ],
        },
        'reports.1.source',
      ],
      [{ reports: [{ date: yesterday, impressions: 1, source: 'a', colour: 'red' }] }, 'reports.0'],
    ];
    for (const [body, path] of cases) {
      const res = await report(s.admin, s.path, body);
      const problem = expectProblem(res, 400, 'bad-request');
      expect(
        problem.errors?.some((e) => e.path.startsWith(path)),
        `${JSON.stringify(body)} → ${JSON.stringify(problem.errors)}`,
      ).toBe(true);
    }
    const badCsv = await reportCsv(s.admin, s.path, `date,impressions,source\n${yesterday},12,acast\n${today},lots,acast\n`);
    expect(expectProblem(badCsv, 400, 'bad-request').errors?.map((e) => e.path)).toEqual(['reports.1.impressions']);
    expectProblem(await reportCsv(s.admin, s.path, `${yesterday},12\n`), 400, 'bad-request');
    expectProblem(await reportCsv(s.admin, s.path, `${yesterday},12,acast\n`, 'text/plain'), 415, 'unsupported-media-type');
    expect((await delivery(s.admin, s.path, `?from=${yesterday}`)).body.totals.reported_impressions).toBeNull();
  });

  it('takes reports only for an accepted offer of the network, from an administrator', async () => {
    const s = await acceptedOffer();
    const body = { date: today, impressions: 5, source: 'megaphone' };
    const open = await offerRow(s.n, s.inventory);
    expectProblem(await report(s.admin, `/networks/${s.n}/offers/${open.id}`, body), 409, 'conflict');
    expect((await report(s.reader, s.path, body)).status).toBe(403);
    const other = await networkWithKeys();
    expect((await report(other.admin, s.path, body)).status).toBe(403);
    expectProblem(await report(other.admin, `/networks/${other.id}/offers/${s.offerId}`, body), 404, 'not-found');
    expectProblem(await delivery(other.admin, `/networks/${other.id}/offers/${s.offerId}`), 404, 'not-found');
  });

  it('bounds an offer’s sources at 10 (409 quota-exceeded) and replays a request sent again with its Idempotency-Key', async () => {
    const s = await acceptedOffer();
    const reports = Array.from({ length: 10 }, (_, i) => ({ date: today, impressions: i, source: `source-${i}` }));
    expect((await report(s.admin, s.path, { reports })).status).toBe(200);
    expectProblem(await report(s.admin, s.path, { date: today, impressions: 1, source: 'one-more' }), 409, 'quota-exceeded');
    expect((await report(s.admin, s.path, { date: yesterday, impressions: 1, source: 'source-3' })).status).toBe(200);
    const key = randomUUID();
    const send = () =>
      api<{ reports: Report[] }>('POST', `${s.path}/delivery-reports`, {
        token: s.admin,
        body: { date: today, impressions: 99, source: 'source-0' },
        headers: { 'idempotency-key': key },
      });
    const first = await send();
    const again = await send();
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('reads at most 400 days, and from not after to', async () => {
    const s = await acceptedOffer();
    expectProblem(await delivery(s.admin, s.path, `?from=${today}&to=${yesterday}`), 400, 'bad-request');
    // Postgres's calendar has no year 0: refused by the input, never a 500 from the database.
    expect(expectProblem(await delivery(s.admin, s.path, '?from=0000-12-31&to=0001-01-01'), 400, 'bad-request').errors).toEqual([
      { path: 'from', message: 'must be 0001-01-01 or later.' },
    ]);
    expectProblem(await delivery(s.admin, s.path, `?from=${addDays(today, -400)}&to=${today}`), 400, 'bad-request');
    expect((await delivery(s.admin, s.path, `?from=${addDays(today, -399)}&to=${today}`)).body.days).toHaveLength(400);
  });
});
