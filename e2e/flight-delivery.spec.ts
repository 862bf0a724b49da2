import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { createNetwork, DEEP, expectNoSeriousA11yViolations, post, screenshot, signInToConsole, v1 } from './console-helpers';

/*
 * What ran (issue 39), in the console against the real server: a campaign's flight with a goal,
 * offered to two podcasts that accept; their ad servers call the offers' real tracking URLs (a
 * browser's user agent, a repeat and a bot among them), one host reports its own count; then the
 * campaign's flights show the pacing, and the flight's delivery page the counts, pacing against
 * the goal, the per-podcast rows and both CSV files. A flight without a goal or offers says why
 * there is nothing to show.
 */

// Days are UTC days: the browser reads them in UTC too, so the days typed are the days checked.
test.use({ timezoneId: 'UTC' });

const BROWSER =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);
const at = (offset: number) => `${day(offset)}T00:00:00.000Z`;

const PHONE = { width: 390, height: 844 };
const SIZES = [PHONE, { width: 1280, height: 800 }, { width: 1024, height: 768 }];

/**
 * Nothing scrolls sideways at 390, 1280 and 1024 px; axe and a screenshot at the phone's width only
 * outside `npm run test:deep` (CI time), at every width in it.
 */
async function atWidths(page: Page, testInfo: TestInfo, name: string, check: () => Promise<void>) {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await check();
    // A chart takes the new width when its resize observer fires: wait for it rather than catch it mid-way.
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth), {
        message: `${name} scrolls sideways at ${size.width}`,
        timeout: 10_000,
      })
      .toBeLessThanOrEqual(size.width);
    if (!DEEP && size !== PHONE) continue;
    await expectNoSeriousA11yViolations(page, testInfo, `${name}-${size.width}`);
    await screenshot(page, testInfo, `console-${name}-${size.width}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** Clicks the export button named `name` and returns the file's lines. */
async function exportLines(page: Page, name: string): Promise<string[]> {
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name, exact: true }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  return readFileSync((await download.path())!, 'utf8')
    .trim()
    .split(/\r?\n/);
}

test('a flight’s delivery: tracked and reported counts, pacing, podcasts and CSV', async ({ page, request, baseURL }, testInfo) => {
  test.setTimeout(180_000);
  const network = await createNetwork(request, `Delivery ${randomUUID().slice(0, 8)}`);
  const n = network.id;
  const advertiser = await post<{ id: string }>(request, `/networks/${n}/advertisers`, { name: 'Acme Mattresses' });
  const campaign = await post<{ id: string }>(request, `/networks/${n}/campaigns`, {
    name: 'Winter sleep',
    advertiser_id: advertiser.id,
    script: 'Sleep better tonight with Acme.',
    starts_at: at(-30),
    ends_at: at(60),
    currency: 'USD',
  });
  // Ten days in of thirty: even delivery of 30,000 expects about ten thousand by now, so five is behind (under 1%).
  const flight = await post<{ id: string }>(request, `/networks/${n}/campaigns/${campaign.id}/flights`, {
    name: 'Pre-roll, this month',
    starts_at: at(-10),
    ends_at: at(20),
    placement: 'pre',
    pricing: { model: 'cpm', amount_cents: 2500, currency: 'USD' },
    impression_goal: 30_000,
  });
  const sponsorship = await post<{ id: string }>(request, `/networks/${n}/campaigns/${campaign.id}/flights`, {
    name: 'Sponsorship',
    starts_at: at(-10),
    ends_at: at(20),
    placement: 'post',
    pricing: { model: 'flat', amount_cents: 500_000, currency: 'USD' },
  });

  const scheduled = await post<{ id: string }>(request, `/networks/${n}/campaigns/${campaign.id}/flights`, {
    name: 'Mid-roll, next month',
    starts_at: at(25),
    ends_at: at(55),
    placement: 'mid',
    pricing: { model: 'cpm', amount_cents: 2000, currency: 'USD' },
    impression_goal: 10_000,
  });

  const tracking: Record<string, string> = {};
  const offerOf: Record<string, string> = {};
  for (const [name, host] of [
    ['Night Owls', 'Sam'],
    ['Morning Commute', 'Ana'],
  ] as const) {
    const podcast = await post<{ id: string }>(request, `/networks/${n}/podcasts`, { name, host_name: host });
    await post(request, `/networks/${n}/podcasts/${podcast.id}/opt-in`, {});
    const offer = await post<{ id: string }>(request, `/networks/${n}/offers`, { flight_id: flight.id, podcast_id: podcast.id });
    const accepted = await post<{ tracking_url: string }>(request, `/networks/${n}/offers/${offer.id}/accept`, {});
    expect(accepted.tracking_url).toMatch(/\/t\/trk_[0-9a-f]{32}\?/);
    tracking[name] = new URL(accepted.tracking_url).pathname;
    offerOf[name] = offer.id;
  }

  // The hosts' ad servers call the real tracking URLs: three episodes and a repeat on Night Owls,
  // a crawler that is not counted, two episodes on Morning Commute.
  const hit = async (podcast: string, episode: string, userAgent = BROWSER) => {
    const response = await fetch(`${baseURL}${tracking[podcast]}?episode=${episode}&rid=${randomUUID()}`, { headers: { 'user-agent': userAgent } });
    expect(response.status, `hit ${podcast} ${episode}`).toBe(204);
  };
  const today = day(0);
  const yesterday = day(-1);
  for (const episode of ['ep-101', 'ep-102', 'ep-103', 'ep-101']) await hit('Night Owls', episode);
  await hit('Night Owls', 'ep-104', GOOGLEBOT);
  for (const episode of ['mc-7', 'mc-8']) await hit('Morning Commute', episode);
  // Night Owls' host reports its own count, for yesterday and today.
  await post(request, `/networks/${n}/offers/${offerOf['Night Owls']}/delivery-reports`, {
    reports: [
      { date: yesterday, impressions: 5, source: 'megaphone' },
      { date: today, impressions: 4, source: 'megaphone' },
    ],
  });
  await expect
    .poll(async () => (await v1<{ delivered_impressions: number }>(request, 'GET', `/networks/${n}/flights/${flight.id}`)).delivered_impressions)
    .toBe(5);

  // The campaign's flights: delivered and the pacing badge in words; the flight without a goal says it has none.
  await signInToConsole(page, { next: `/console/n/${n}/campaigns/${campaign.id}` });
  const flights = page.getByRole('table', { name: 'Flights of this campaign' });
  const row = flights.getByRole('row').filter({ hasText: 'Pre-roll, this month' });
  await expect(row.getByTestId('flight-delivery')).toContainText('5 delivered');
  await expect(row.getByTestId('pacing-badge')).toHaveText('Behind · under 1%');
  await expect(flights.getByRole('row').filter({ hasText: 'Sponsorship' })).toContainText('No goal, no pacing');
  await expect(flights.getByRole('row').filter({ hasText: 'Mid-roll, next month' }).getByTestId('pacing-badge')).toHaveText('On track · not started');
  await atWidths(page, testInfo, 'campaign-flights-pacing', async () => {
    await expect(row.getByTestId('pacing-badge')).toBeVisible();
  });

  await row.getByRole('link', { name: /Pre-roll, this month/ }).click();
  await expect(page).toHaveURL(new RegExp(`/campaigns/${campaign.id}/flights/${flight.id}$`));
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Pre-roll, this month');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('live');
  const facts = page.getByTestId('flight-facts');
  await expect(facts).toContainText('30,000 impressions');
  await expect(page.getByTestId('flight-delivered')).toHaveText('5 impressions');
  await expect(facts.getByTestId('pacing-badge')).toHaveText('Behind · under 1% of even pace');
  await expect(page.getByTestId('pacing-sentence')).toContainText(
    /^5 delivered where even delivery of the 30,000 goal expects [\d,]+ by now \(under 1%\)/,
  );

  // The daily chart's summary and its table: both counts, labelled; yesterday reported only.
  await expect(page.getByTestId('daily-chart').locator('svg.recharts-surface').first()).toBeVisible();
  await expect(page.getByTestId('daily-summary')).toContainText('5 tracked, 9 reported (on 2 of 11 days)');
  await expect(page.getByText(/^Counted by this service from its tracking URL/)).toBeVisible();
  await page.getByText('The numbers by day').click();
  const days = page.getByRole('table', { name: 'Impressions by day' });
  const dayRow = (d: string) => {
    const label = new Date(`${d}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
    return days.getByRole('row', { name: new RegExp(`^${label} `) });
  };
  await expect(dayRow(today).getByRole('cell')).toHaveText(['5', '4', '5', /^[\d,]+$/]);
  await expect(dayRow(yesterday).getByRole('cell')).toHaveText(['0', '5', '0', /^[\d,]+$/]);
  await expect(page.getByTestId('pacing-chart').locator('svg.recharts-surface').first()).toBeVisible();

  // Per podcast, over the flight's days so far: tracked and reported (yesterday's and today's); Morning Commute reported nothing.
  const podcasts = page.getByRole('table', { name: 'Delivery by podcast' });
  await expect(podcasts.getByRole('row').filter({ hasText: 'Night Owls' }).getByRole('cell')).toHaveText(['Night Owls', '3', '9']);
  await expect(podcasts.getByRole('row').filter({ hasText: 'Morning Commute' }).getByRole('cell')).toHaveText([
    'Morning Commute',
    '2',
    'not reported',
  ]);

  await atWidths(page, testInfo, 'flight-delivery', async () => {
    await expect(page.getByTestId('daily-summary')).toBeVisible();
  });

  // Both CSV files hold the rows shown.
  // Columns: key, name, tracked_impressions, reported_impressions, goal, pacing.… (server/transport/csv.ts).
  const daysCsv = await exportLines(page, 'Export days (CSV)');
  expect(daysCsv[0]).toMatch(/^key,name,tracked_impressions,reported_impressions,/);
  expect(daysCsv.filter((line) => /^\d{4}-\d{2}-\d{2},/.test(line))).toHaveLength(11);
  expect(daysCsv).toContainEqual(expect.stringMatching(new RegExp(`^${today},,5,4,`)));
  expect(daysCsv).toContainEqual(expect.stringMatching(new RegExp(`^${yesterday},,0,5,`)));
  const podcastsCsv = await exportLines(page, 'Export podcasts (CSV)');
  expect(podcastsCsv).toHaveLength(3);
  expect(podcastsCsv).toContainEqual(expect.stringMatching(/^pod_\w+,Night Owls,3,9,/));
  expect(podcastsCsv).toContainEqual(expect.stringMatching(/^pod_\w+,Morning Commute,2,,/));

  // A flat fee without a goal and without offers: nothing to pace, nothing delivered, and why.
  await page.goto(`/console/n/${n}/campaigns/${campaign.id}/flights/${sponsorship.id}`);
  await expect(page.getByText('No offers accepted yet')).toBeVisible();
  await expect(page.getByText('No pacing: this flight has no impression goal')).toBeVisible();
  await expect(page.getByTestId('flight-facts')).toContainText('None: the flight has no impression goal');
  await expect(page.getByTestId('daily-summary')).toContainText('0 tracked, none reported');
  await atWidths(page, testInfo, 'flight-delivery-no-goal', async () => {
    await expect(page.getByText('No offers accepted yet')).toBeVisible();
  });

  // A flight still to come: nothing to report yet, and its pacing chart is even delivery alone.
  await page.goto(`/console/n/${n}/campaigns/${campaign.id}/flights/${scheduled.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('scheduled');
  await expect(page.getByText('The flight has not started').first()).toBeVisible();
  await expect(page.getByTestId('pacing-sentence')).toHaveText('Nothing is expected yet: the flight has not started. 0 delivered so far.');
  await expect(page.getByTestId('pacing-chart').locator('svg.recharts-surface').first()).toBeVisible();
});
