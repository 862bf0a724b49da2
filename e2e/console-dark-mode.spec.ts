import { randomUUID } from 'node:crypto';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { DEEP, createNetwork, post, startOkReceiver, expectNoSeriousA11yViolations, screenshot, signInToConsole } from './console-helpers';

/*
 * Dark mode (issue 35, item 8): the console follows the system's colour scheme until the theme
 * toggle (System / Light / Dark, in the side bar and the drawer) chooses one; the choice is kept
 * in localStorage and on <html> before the first paint; axe finds nothing serious in the dark
 * theme on pages with data, an open sheet, a dialog and a toast. Screenshots at 1280, 1024 and
 * 390 px go to test-results/. The other console specs run in the light theme (Playwright's default).
 */

test.use({ colorScheme: 'dark' });

const THEME_ITEM = 'ans.console.theme';

/**
 * The relative luminance (0 black … 1 white) of an element's background colour, whatever the
 * syntax the browser reports it in (console.css's colours are oklch): a canvas converts it to sRGB.
 */
async function backgroundLuminance(page: Page, selector = 'body'): Promise<number> {
  return page.evaluate((selector) => {
    const color = getComputedStyle(document.querySelector(selector)!).backgroundColor;
    const context = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
    context.fillStyle = color;
    context.fillRect(0, 0, 1, 1);
    const [r, g, b] = [...context.getImageData(0, 0, 1, 1).data].map((v) => {
      const c = v / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  }, selector);
}

async function expectDark(page: Page) {
  expect(await backgroundLuminance(page), 'the page background is dark').toBeLessThan(0.05);
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe('dark');
}

async function expectLight(page: Page) {
  expect(await backgroundLuminance(page), 'the page background is light').toBeGreaterThan(0.85);
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe('light');
}

/**
 * Records <html>'s theme attribute at the moment <body> appears, before anything of it can be
 * drawn: what the head script set is what the first paint shows.
 */
async function recordThemeAtFirstBody(page: Page) {
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (!document.body) return;
      observer.disconnect();
      (window as unknown as { themeAtFirstBody: string | null }).themeAtFirstBody = document.documentElement.getAttribute('data-console-theme');
    }).observe(document, { childList: true, subtree: true });
  });
}

const themeAtFirstBody = (page: Page) => page.evaluate(() => (window as unknown as { themeAtFirstBody?: string | null }).themeAtFirstBody);

/** Messages React and Next print about a server/client mismatch (the theme attribute must not cause one). */
function collectHydrationWarnings(page: Page): string[] {
  const warnings: string[] = [];
  page.on('console', (message) => {
    if (/hydrat|did not match|didn't match/i.test(message.text())) warnings.push(message.text());
  });
  return warnings;
}

const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 1024, height: 768 },
  { width: 390, height: 844 },
];

/** axe in the dark theme (but at 1024 px outside test:deep) and a screenshot at every width; `ready` waits for what the page must show. */
async function darkAtEveryWidth(page: Page, testInfo: TestInfo, name: string, ready: () => Promise<void>) {
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await ready();
    await expectDark(page);
    // At 1024 px the page shows the elements it shows at 1280 or 390, in the same palette: axe there in test:deep only.
    if (DEEP || size.width !== 1024) await expectNoSeriousA11yViolations(page, testInfo, `dark-${name}-${size.width}`);
    await screenshot(page, testInfo, `console-dark-${name}-${size.width}`);
  }
  await page.setViewportSize(WIDTHS[0]!);
}

test.describe('console dark mode', () => {
  test('with the system dark and nothing chosen, the console is dark, also before its script runs', async ({ page, browser }, testInfo) => {
    const noScript = await browser.newContext({ javaScriptEnabled: false, colorScheme: 'dark' });
    const bare = await noScript.newPage();
    await bare.goto('/console/sign-in');
    await expect(bare.getByLabel('API key')).toBeVisible();
    await expectDark(bare);
    await noScript.close();

    await page.goto('/console/sign-in');
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    expect(await page.evaluate((item) => localStorage.getItem(item), THEME_ITEM)).toBeNull();
    await expectDark(page);
    await expectNoSeriousA11yViolations(page, testInfo, 'dark-sign-in');
    await screenshot(page, testInfo, 'console-dark-sign-in-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSeriousA11yViolations(page, testInfo, 'dark-sign-in-390');
    await screenshot(page, testInfo, 'console-dark-sign-in-390');
  });

  test('the toggle: Light is kept through a reload and drawn from the first paint; System follows the system again', async ({
    page,
    request,
  }, testInfo) => {
    const network = await createNetwork(request, `Dark toggle ${randomUUID().slice(0, 8)}`);
    const hydration = collectHydrationWarnings(page);
    await recordThemeAtFirstBody(page);
    await signInToConsole(page, { next: `/console/n/${network.id}` });
    await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
    await expectDark(page);

    const theme = page.getByRole('group', { name: 'Theme' });
    await expect(theme.getByRole('radio', { name: 'System' })).toBeChecked();
    // By keyboard: Tab reaches the chosen radio, an arrow key chooses the next.
    await theme.getByRole('radio', { name: 'System' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(theme.getByRole('radio', { name: 'Light' })).toBeChecked();
    await expectLight(page);
    expect(await page.evaluate((item) => localStorage.getItem(item), THEME_ITEM)).toBe('light');

    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
    expect(await themeAtFirstBody(page), 'the theme on <html> before the body is drawn').toBe('light');
    await expectLight(page);
    await expect(theme.getByRole('radio', { name: 'Light' })).toBeChecked();

    // The system turning light and then dark again changes nothing while Light is chosen.
    await page.emulateMedia({ colorScheme: 'light' });
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectLight(page);

    // At 390 px the toggle is in the drawer.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menuTheme = page.getByRole('dialog', { name: 'Menu' }).getByRole('group', { name: 'Theme' });
    // A pointer clicks the icon (the radio inside it is visually hidden).
    await menuTheme.getByTitle('Dark').click();
    await expect(menuTheme.getByRole('radio', { name: 'Dark' })).toBeChecked();
    await expectDark(page);
    expect(await page.evaluate((item) => localStorage.getItem(item), THEME_ITEM)).toBe('dark');
    await expectNoSeriousA11yViolations(page, testInfo, 'dark-menu-390');
    await screenshot(page, testInfo, 'console-dark-menu-390');

    // Dark chosen holds on a light system; System follows the system again, as it changes.
    await page.emulateMedia({ colorScheme: 'light' });
    await expectDark(page);
    await menuTheme.getByTitle('System').click();
    await expectLight(page);
    expect(await page.evaluate((item) => localStorage.getItem(item), THEME_ITEM)).toBeNull();
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectDark(page);

    expect(hydration, 'hydration warnings').toEqual([]);
  });

  test('dark at 1280, 1024 and 390 px: axe finds nothing serious with data, a sheet, a dialog and a toast', async ({
    page,
    browser,
    request,
  }, testInfo) => {
    test.setTimeout(360_000);
    const receiver = await startOkReceiver();
    try {
      const suffix = randomUUID().slice(0, 8);
      const network = await createNetwork(request, `Dark ${suffix}`);
      const n = network.id;
      const webhook = await post<{ id: string }>(request, `/networks/${n}/webhooks`, {
        url: receiver.url,
        events: ['offer.accepted', 'creative.ready', 'optin.completed'],
      });
      await post(request, `/networks/${n}/service-accounts`, { name: 'Nightly billing export', role: 'read_only' });
      const advertiser = await post<{ id: string }>(request, `/networks/${n}/advertisers`, { name: 'Acme Mattresses Inc.' });
      const campaign = await post<{ id: string }>(request, `/networks/${n}/campaigns`, {
        name: 'Spring sale',
        advertiser_id: advertiser.id,
        script: 'Sleep better tonight with Acme mattresses, made to order and delivered in three days.',
        status: 'active',
        starts_at: '2027-03-01T09:00:00Z',
        ends_at: '2027-04-01T09:00:00Z',
        budget_cents: 250_000,
        currency: 'USD',
      });
      const podcasts = [];
      for (const name of ['Night Owls', 'Morning Commute']) {
        const podcast = await post<{ id: string }>(request, `/networks/${n}/podcasts`, { name, host_name: 'Sam Host', voice: 'warm' });
        await post(request, `/networks/${n}/podcasts/${podcast.id}/opt-in`, {});
        podcasts.push(podcast);
      }
      const accepted = await post<{ id: string }>(request, `/networks/${n}/offers`, {
        campaign_id: campaign.id,
        podcast_id: podcasts[0]!.id,
        price_cents: 12_000,
        currency: 'USD',
      });
      await post(request, `/networks/${n}/offers/${accepted.id}/accept`, {});
      const open = await post<{ id: string }>(request, `/networks/${n}/offers`, {
        campaign_id: campaign.id,
        podcast_id: podcasts[1]!.id,
        price_cents: 9_000,
        currency: 'USD',
      });

      // --- Overview: counts, recent events, the chart (SVG in the palette's colours) --------------
      await signInToConsole(page, { next: `/console/n/${n}` });
      const chart = page.getByTestId('delivery-chart');
      await expect(chart).toContainText('typical latency', { timeout: 45_000 });
      await darkAtEveryWidth(page, testInfo, 'overview', async () => {
        await expect(chart.locator('.recharts-line-dots circle, .recharts-line-dot').first()).toBeVisible();
      });
      // The chart's grid and bars are drawn in the dark palette, not the light one.
      const gridStroke = await chart
        .locator('.recharts-cartesian-grid line')
        .first()
        .evaluate((line) => getComputedStyle(line).stroke);
      expect(gridStroke).not.toMatch(/rgb\(226, 232, 240\)|92\.9%/);

      // --- Offers: the list, then one offer in its sheet -------------------------------------------
      await page.goto(`/console/n/${n}/offers?offer=${open.id}`);
      const sheet = page.getByRole('dialog', { name: 'Offer' });
      await darkAtEveryWidth(page, testInfo, 'offer-sheet', async () => {
        await expect(sheet.getByRole('button', { name: /^Accept offer of/ })).toBeVisible();
      });
      await sheet.getByRole('button', { name: 'Close' }).click();
      await expect(sheet).toBeHidden();
      await darkAtEveryWidth(page, testInfo, 'offers', async () => {
        await expect(page.getByRole('table', { name: 'Offers' }).getByRole('row').filter({ hasText: 'Morning Commute' })).toBeVisible();
      });

      // A confirmation (Radix alert dialog), then a toast (kept on screen while the pointer rests on
      // it, as sonner does) over the page.
      await page
        .getByRole('table', { name: 'Offers' })
        .getByRole('button', { name: /^Accept offer of/ })
        .first()
        .click();
      const confirm = page.getByRole('alertdialog', { name: 'Accept this offer?' });
      await darkAtEveryWidth(page, testInfo, 'confirm-dialog', async () => {
        await expect(confirm.getByRole('button', { name: 'Accept offer' })).toBeVisible();
      });
      await confirm.getByRole('button', { name: 'Accept offer' }).click();
      const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'Offer accepted' });
      await expect(toast).toBeVisible();
      await toast.hover();
      await screenshot(page, testInfo, 'console-dark-toast-1280');
      await expectNoSeriousA11yViolations(page, testInfo, 'dark-toast');

      // --- API keys, with a row of the service account's key -------------------------------------
      await page.goto(`/console/n/${n}/api-keys`);
      await darkAtEveryWidth(page, testInfo, 'api-keys', async () => {
        await expect(page.locator('main table').first().getByRole('row').filter({ hasText: 'Nightly billing export' }).first()).toBeVisible();
      });

      // --- The event log and the audit log; the search palette over a page -------------------------
      await page.goto(`/console/n/${n}/events`);
      await darkAtEveryWidth(page, testInfo, 'events', async () => {
        await expect(page.getByLabel('Events').getByText('offer.accepted').first()).toBeVisible();
      });
      await page.goto(`/console/n/${n}/audit-log`);
      await darkAtEveryWidth(page, testInfo, 'audit-log', async () => {
        await expect(page.getByLabel('Audit log').getByText('service_account.created').first()).toBeVisible();
      });
      await page.keyboard.press('Control+k');
      const palette = page.getByRole('dialog', { name: 'Search the console' });
      await palette.getByRole('combobox').fill('a');
      await expect(palette.getByRole('option').first()).toBeVisible();
      await expectDark(page);
      await expectNoSeriousA11yViolations(page, testInfo, 'dark-command-palette');
      await screenshot(page, testInfo, 'console-dark-command-palette-1280');
      await page.keyboard.press('Escape');

      // --- Webhooks: the list, a dialog over it, the webhook's page with its deliveries -----------
      await page.goto(`/console/n/${n}/webhooks`);
      await darkAtEveryWidth(page, testInfo, 'webhooks', async () => {
        await expect(page.getByRole('table', { name: 'Webhooks' }).getByRole('row')).not.toHaveCount(1);
      });
      await page.getByRole('button', { name: 'Add webhook' }).first().click();
      const create = page.getByRole('dialog', { name: 'Add webhook' });
      await create.getByRole('button', { name: 'Create webhook' }).click(); // errors on the fields, in the dark theme too
      await expect(create.getByText(/must|required|at least/i).first()).toBeVisible();
      await darkAtEveryWidth(page, testInfo, 'webhook-dialog', async () => {
        await expect(create.getByLabel('Endpoint URL')).toBeVisible();
      });
      await create.getByRole('button', { name: 'Cancel' }).click();

      await page.goto(`/console/n/${n}/webhooks/${webhook.id}`);
      const deliveries = page.getByRole('table', { name: 'Deliveries' });
      await expect(deliveries.getByRole('row').filter({ hasText: 'offer.accepted' }).first()).toContainText('succeeded', { timeout: 30_000 });
      await darkAtEveryWidth(page, testInfo, 'webhook-detail', async () => {
        await expect(deliveries).toBeVisible();
      });

      // --- Skeletons: the API keys list while its answer is held back ------------------------------
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/trpc/**', async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(`/console/n/${n}/members`);
      await expect(page.locator('.animate-pulse').first()).toBeVisible();
      await expectDark(page);
      await screenshot(page, testInfo, 'console-dark-skeleton-1280');
      release();
      await expect(page.locator('main [aria-busy="true"]')).toHaveCount(0);
      await page.unroute('**/api/trpc/**');

      // --- The invitation page, opened signed out in a browser of its own ------------------------
      const invitation = await post<{ token: string }>(request, `/networks/${n}/invitations`, {
        email: `dark-${suffix}@example.com`,
        role: 'read_only',
      });
      const invitee = await browser.newContext({ colorScheme: 'dark' });
      const inviteePage = await invitee.newPage();
      await inviteePage.goto(`/console/invitations/accept#token=${invitation.token}`);
      await expect(inviteePage.getByRole('heading', { name: 'Accept your invitation' })).toBeVisible();
      await expect(inviteePage.getByTestId('invitation-summary')).toBeVisible();
      for (const size of [WIDTHS[0]!, WIDTHS[2]!]) {
        await inviteePage.setViewportSize(size);
        await expectDark(inviteePage);
        await expectNoSeriousA11yViolations(inviteePage, testInfo, `dark-invitation-${size.width}`);
        await screenshot(inviteePage, testInfo, `console-dark-invitation-${size.width}`);
      }
      await invitee.close();
    } finally {
      await receiver.close();
    }
  });
});
