import { randomUUID } from 'node:crypto';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import {
  DEEP,
  createNetwork,
  e2eToken,
  grantVoiceConsent,
  post,
  startOkReceiver,
  expectNoSeriousA11yViolations,
  screenshot,
  signInToConsole,
} from './console-helpers';

/*
 * A console that holds up at 1280, 1024 and 390 px (issues 18 and 35): tables become stacked cards
 * in narrow boxes instead of scrolling sideways, every row's actions are on screen at every width, the header names the network, dates have one format
 * with the time zone stated, the overview names what happened and links to it, the campaign page
 * lists its offers and creatives, the sidebar names the person, "My keys" lists the caller's own
 * keys, and the webhook page fits its card with Delete away from Edit. Screenshots of each page
 * at both widths go to test-results/.
 */

const auth = () => ({ Authorization: `Bearer ${e2eToken()}` });
/** "24 Nov 2026, 23:12 UTC" — the console's one date format (the zone the browser is in, stated). */
const DATE_FORMAT = /^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} (UTC|GMT([+-]\d{1,2}(:\d{2})?)?|[A-Z]{3,5})$/;
const LONG_PODCAST = 'The Remarkably Long-Running Morning Commute Show';
const SCRIPT =
  'Sleep better tonight with Acme mattresses, made to order in Ohio and delivered to your door in three days, with a hundred nights to try it at home.';

/**
 * Between the two layouts: a table box of ~800 px is a table again, and a wide one scrolls inside
 * it with its actions pinned to the right edge (the only width where a table may scroll).
 */
const PINNED_WIDTH = 1120;

/** Nothing scrolls sideways: not the page, and (but at PINNED_WIDTH) not any table inside its card. */
async function expectNoSidewaysScroll(page: Page, width: number) {
  // What a resize changes settles within a few frames (React renders what depends on the width):
  // the settled page is checked, and a failure names the elements that reach past the window.
  const pageWidth = () => page.evaluate(() => document.documentElement.scrollWidth);
  await expect
    .poll(pageWidth, { timeout: 3_000 })
    .toBeLessThanOrEqual(width)
    .catch(async (error: Error) => {
      const past = await page.evaluate((limit) => {
        const describe = (el: Element) =>
          `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${[...el.classList].slice(0, 4).join('.')} “${(el.textContent ?? '').trim().slice(0, 40)}”`;
        return [...document.querySelectorAll('body *')]
          .filter((el) => el.getBoundingClientRect().right > limit)
          .slice(-5)
          .map((el) => `${describe(el)} right=${Math.round(el.getBoundingClientRect().right)}`);
      }, width);
      throw new Error(`page scrolls sideways at ${width} px; the last elements (in page order) past it: ${past.join('; ')}\n${error.message}`);
    });
  if (width === PINNED_WIDTH) return;
  const overflowing = await page.evaluate(() =>
    [...document.querySelectorAll('table')]
      .map((table) => table.parentElement!)
      .filter((wrapper) => wrapper.scrollWidth > wrapper.clientWidth + 1)
      .map((wrapper) => `${wrapper.querySelector('table')!.getAttribute('aria-label')}: ${wrapper.scrollWidth} > ${wrapper.clientWidth}`),
  );
  expect(overflowing, 'tables that scroll sideways inside their card').toEqual([]);
}

/** Every date the page shows is in the one format, and no other date format appears. */
async function expectOneDateFormat(page: Page) {
  const times = await page.locator('main time').allInnerTexts();
  for (const text of times.filter((t) => !/ago|now|second|minute|hour/.test(t))) expect(text).toMatch(DATE_FORMAT);
  const body = await page.locator('main').innerText();
  expect(body, 'a 12-hour or numeric date').not.toMatch(/\b\d{1,2}:\d{2}(:\d{2})? ?(AM|PM)\b|\b\d{1,2}\/\d{1,2}\/\d{2,4}\b/);
}

/**
 * Every button and link in every row is on screen as the page opens: inside its table's box and
 * the window, and not covered by anything (a cell scrolled under the pinned actions, say). One
 * evaluation for the whole page: it scrolls each control into view (vertically; horizontally it
 * must already be in view) and asks what is drawn at its centre.
 */
async function expectEveryActionOnScreen(page: Page) {
  const problems = await page.locator('main table tbody :is(button, a)').evaluateAll((elements) => {
    const found: string[] = [];
    for (const control of elements) {
      const table = control.closest('table')!;
      const box = table.parentElement!;
      const { left } = box.getBoundingClientRect();
      const r = control.getBoundingClientRect();
      const within = r.left >= left - 1 && r.right <= left + box.clientWidth + 1 && r.left >= 0 && r.right <= window.innerWidth + 1;
      if (!within) {
        found.push(
          `${table.getAttribute('aria-label')}: “${control.textContent}” at ${Math.round(r.left)}–${Math.round(r.right)} is outside its table or the window`,
        );
        continue;
      }
      control.scrollIntoView({ block: 'center', inline: 'nearest' });
      // The first line box: a link wrapped onto two lines has nothing of its own at its box's centre.
      const line = control.getClientRects()[0] ?? control.getBoundingClientRect();
      const hit = document.elementFromPoint(line.left + line.width / 2, line.top + line.height / 2);
      if (hit === null || !(hit === control || control.contains(hit))) found.push(`“${control.textContent}” is covered`);
    }
    window.scrollTo(0, 0);
    return found;
  });
  expect(problems, 'row actions off screen or covered').toEqual([]);
}

/** The checked widths: a laptop, the pinned case, a small laptop or tablet beside the sidebar, a phone. */
const WIDTHS = [
  { width: 1280, height: 800 },
  { width: PINNED_WIDTH, height: 800 },
  { width: 1024, height: 768 },
  { width: 390, height: 844 },
];

/** axe at the widest width and the stacked one in `npm test`; at the two between as well in test:deep. */
const AXE_WIDTHS = [1280, 390];

async function atEveryWidth(page: Page, testInfo: TestInfo, name: string, check: (width: number) => Promise<void>) {
  for (const size of WIDTHS) {
    const { width } = size;
    await page.setViewportSize(size);
    await check(width);
    await expectEveryActionOnScreen(page);
    if (DEEP || AXE_WIDTHS.includes(width)) await expectNoSeriousA11yViolations(page, testInfo, `${name}-${width}`);
    await screenshot(page, testInfo, `console-${name}-${width}`);
  }
}

test('the console at 1280, 1024 and 390 px: every action on screen, stacked tables, the network in the header, names and links, one date format', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(240_000);
  const receiver = await startOkReceiver(15);
  try {
    const suffix = randomUUID().slice(0, 8);
    const network = await createNetwork(request, `Layout ${suffix}`);
    const n = network.id;
    const webhook = await post<{ id: string }>(request, `/networks/${n}/webhooks`, {
      url: receiver.url,
      events: ['optin.completed', 'offer.accepted', 'creative.ready'],
    });
    // A service account with a key: rows with Rotate and Revoke on API keys and Service accounts.
    await post(request, `/networks/${n}/service-accounts`, { name: 'Nightly billing export', role: 'read_only' });
    const advertiser = await post<{ id: string }>(request, `/networks/${n}/advertisers`, { name: 'Acme Mattresses Inc.' });
    const campaign = await post<{ id: string }>(request, `/networks/${n}/campaigns`, {
      name: 'Spring sale',
      advertiser_id: advertiser.id,
      script: SCRIPT,
      status: 'active',
      starts_at: '2027-03-01T09:00:00Z',
      ends_at: '2027-04-01T09:00:00Z',
      budget_cents: 250_000,
      currency: 'USD',
    });
    const podcast = await post<{ id: string }>(request, `/networks/${n}/podcasts`, { name: LONG_PODCAST, host_name: 'Sam Host', voice: 'warm' });
    await post(request, `/networks/${n}/podcasts/${podcast.id}/opt-in`, {});
    // The host grants their voice: the accepted offer's creative is made (and waits for approval).
    await grantVoiceConsent(request, n, podcast.id, 'Sam Host');
    const offer = await post<{ id: string }>(request, `/networks/${n}/offers`, {
      campaign_id: campaign.id,
      podcast_id: podcast.id,
      price_cents: 12_000,
      currency: 'USD',
    });
    await post(request, `/networks/${n}/offers/${offer.id}/accept`, {});

    // --- The sidebar names the person, not the key; the header names the network ----------------
    await signInToConsole(page, { next: `/console/n/${n}` });
    await expect(page.getByTestId('signed-in-as')).toContainText('Platform operator');
    await expect(page.getByTestId('signed-in-as')).toContainText('key “bootstrap”');

    // --- Overview: events name the campaign and podcast and link to them; the chart draws ------
    const events = page.getByRole('list', { name: 'Recent events' });
    await expect(
      events.getByRole('link', { name: `Offer of “Spring sale” to “${LONG_PODCAST}” accepted — its creative is generating` }),
    ).toHaveAttribute('href', `/console/n/${n}/offers?campaign=${campaign.id}`);
    await expect(events.getByRole('link', { name: `Creative of “Spring sale” on “${LONG_PODCAST}” is made and waits for approval` })).toBeVisible({
      timeout: 45_000,
    });
    await expect(events).not.toContainText('off_');
    const chart = page.getByTestId('delivery-chart');
    await expect(chart).toContainText('typical latency', { timeout: 30_000 });
    await atEveryWidth(page, testInfo, 'overview-layout', async (width) => {
      if (width === 390) await expect(page.getByTestId('header-network')).toContainText(network.name);
      await expect(chart.locator('.recharts-line-dots circle, .recharts-line-dot').first()).toBeVisible();
      // One bucket of data still draws: a point per latency line.
      expect(await chart.locator('.recharts-line-dots circle, .recharts-line-dot').count()).toBeGreaterThanOrEqual(2);
      // No axis label wraps onto a second line.
      const lines = await chart
        .locator('.recharts-cartesian-axis-tick-value')
        .evaluateAll((ticks) => ticks.map((t) => t.querySelectorAll('tspan').length));
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.every((count) => count === 1)).toBe(true);
      await expectNoSidewaysScroll(page, width);
      await expectOneDateFormat(page);
    });

    // --- Campaigns: a script excerpt; the campaign page lists its offers and creatives ------------
    await page.goto(`/console/n/${n}/campaigns`);
    const row = page.getByRole('table', { name: 'Campaigns' }).getByRole('row').filter({ hasText: 'Spring sale' });
    await atEveryWidth(page, testInfo, 'campaigns', async (width) => {
      await expect(row).toContainText('Sleep better tonight with Acme mattresses');
      await expect(row).not.toContainText(/\d+ chars/);
      await expectNoSidewaysScroll(page, width);
      await expectOneDateFormat(page);
    });

    await row.getByRole('link', { name: 'Spring sale' }).click();
    const offers = page.getByRole('table', { name: 'Offers of this campaign' });
    await atEveryWidth(page, testInfo, 'campaign-detail', async (width) => {
      await expect(offers.getByRole('row').filter({ hasText: LONG_PODCAST })).toContainText('pending approval', { timeout: 30_000 });
      await expect(offers.getByRole('link', { name: 'Open creative' })).toHaveAttribute('href', `/console/n/${n}/creatives?offer=${offer.id}`);
      // The podcast selector shows the whole name, wrapped if need be, never cut off.
      const choice = page.getByRole('radio', { name: new RegExp(LONG_PODCAST) });
      await expect(choice).toBeChecked();
      const label = page.getByTestId('preview-podcasts').locator('label').filter({ hasText: LONG_PODCAST });
      await expect(label).toContainText(`${LONG_PODCAST}Host Sam Host · warm voice`);
      expect(await label.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      await expect(page.getByText(/^Starts/).locator('..')).toContainText(/1 Mar 2027, \d{2}:\d{2} (UTC|GMT)/);
      await expectNoSidewaysScroll(page, width);
      await expectOneDateFormat(page);
    });

    // --- Creatives: Play, Download and then the audio player are on screen at 390 px ------------
    await page.goto(`/console/n/${n}/creatives`);
    await page
      .getByRole('button', { name: /^Play Audio:/ })
      .first()
      .click();
    await atEveryWidth(page, testInfo, 'creatives-layout', async (width) => {
      const download = (await page
        .getByRole('button', { name: /^Download Audio:/ })
        .first()
        .boundingBox())!;
      expect(download.x + download.width).toBeLessThanOrEqual(width);
      const player = page.locator('main audio').first();
      await expect(player).toBeVisible({ timeout: 30_000 });
      const box = (await player.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      await expectNoSidewaysScroll(page, width);
      await expectOneDateFormat(page);
    });

    // --- The other lists: stacked in narrow boxes, nothing sideways, every action on screen ------
    for (const section of ['offers', 'advertisers', 'podcasts', 'members', 'api-keys', 'service-accounts', 'webhooks', 'events', 'audit-log']) {
      await page.goto(`/console/n/${n}/${section}`);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.locator('main table')).not.toHaveCount(0);
      await expect(page.locator('main [aria-busy="true"]')).toHaveCount(0);
      if (section === 'api-keys' || section === 'service-accounts') {
        await expect(page.locator('main table').first().getByRole('row').filter({ hasText: 'Nightly billing export' }).first()).toBeVisible();
      }
      await atEveryWidth(page, testInfo, `${section}-layout`, async (width) => {
        await expectNoSidewaysScroll(page, width);
        await expectOneDateFormat(page);
      });
    }

    // --- Your account: with the operator's key (not a session) it explains where passkeys are added
    await page.goto(`/console/n/${n}/account`);
    await expect(page.getByText('Passkeys are added from a session')).toBeVisible();
    await atEveryWidth(page, testInfo, 'account-layout', async (width) => {
      await expectNoSidewaysScroll(page, width);
      await expectOneDateFormat(page);
    });

    // --- Webhook page: the deliveries fit the card, the date inputs show their value, Delete stands apart
    await page.goto(`/console/n/${n}/webhooks/${webhook.id}`);
    const deliveries = page.getByRole('table', { name: 'Deliveries' });
    await expect(deliveries.getByRole('row').filter({ hasText: 'creative.ready' })).toContainText('succeeded', { timeout: 30_000 });
    for (const label of ['Created since', 'Created until']) await page.getByLabel(label).fill('2026-11-24T23:59');
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await atEveryWidth(page, testInfo, 'webhook-detail-layout', async (width) => {
      await expectNoSidewaysScroll(page, width);
      await expectOneDateFormat(page);
      if (width === 1280) {
        for (const label of ['Created since', 'Created until', 'Recover failed since…']) {
          const input = page.getByLabel(label);
          await input.fill('2026-11-24T23:59');
          // A datetime-local input needs about 13rem at 14 px to show "24/11/2026, 23:59" or "11/24/2026, 11:59 PM" and its picker.
          expect((await input.boundingBox())!.width, `${label} is wide enough`).toBeGreaterThanOrEqual(208);
        }
        await page.getByRole('button', { name: 'Clear filters' }).click();
      }
      const edit = page.getByRole('button', { name: 'Edit', exact: true });
      const remove = page.getByRole('button', { name: 'Delete', exact: true });
      // Delete is in its own card below the deliveries, not beside Edit, and not a solid red button.
      expect((await remove.boundingBox())!.y).toBeGreaterThan((await deliveries.boundingBox())!.y);
      expect(await remove.evaluate((e, other) => e.parentElement === other!.parentElement, await edit.elementHandle())).toBe(false);
      expect(await remove.evaluate((e) => getComputedStyle(e).backgroundColor)).toBe('rgb(255, 255, 255)');
    });
  } finally {
    await receiver.close();
  }
});

test('"My keys" lists the signed-in owner’s own keys, and the sidebar names the service account', async ({ page, request }, testInfo) => {
  const suffix = randomUUID().slice(0, 8);
  const network = await createNetwork(request, `My keys ${suffix}`);
  const account = await post<{ id: string; api_key: { id: string; token: string } }>(request, `/networks/${network.id}/service-accounts`, {
    name: `Billing export ${suffix}`,
    role: 'administrator',
  });
  const second = await post<{ id: string; start: string }>(request, `/networks/${network.id}/service-accounts/${account.id}/keys`, {
    key_name: 'nightly',
    role: 'read_only',
  });

  await signInToConsole(page, { token: account.api_key.token, next: `/console/n/${network.id}/my-keys` });
  await expect(page.getByRole('heading', { level: 1, name: 'My keys' })).toBeVisible();
  await expect(page.getByTestId('signed-in-as')).toContainText(`Billing export ${suffix}`);
  const keys = page.getByRole('table', { name: 'My keys' });
  await atEveryWidth(page, testInfo, 'my-keys', async (width) => {
    await expect(keys.getByRole('row').filter({ hasText: 'signed in with this key' })).toHaveCount(1);
    await expect(keys.getByRole('row').filter({ hasText: `${second.start}…` })).toContainText('Read only');
    await expectNoSidewaysScroll(page, width);
    await expectOneDateFormat(page);
  });

  // Revoking one's own other key: gone from the API at once.
  await keys.getByRole('button', { name: 'Revoke nightly' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke key' }).click();
  await expect(keys.getByRole('row').filter({ hasText: `${second.start}…` })).toContainText('revoked');
  const after = await request.get(`/v1/networks/${network.id}/apikeys`, { headers: auth() });
  expect(((await after.json()) as { items: Array<{ id: string; status: string }> }).items.find((k) => k.id === second.id)?.status).toBe('revoked');
});
