import { randomUUID } from 'node:crypto';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { createNetwork, expectNoSeriousA11yViolations, post, screenshot, signInToConsole, v1 } from './console-helpers';

/*
 * Test networks (sandboxes) in the console: a super_user creates one with sample data from the side
 * bar ("Create sandbox with sample data": POST /networks with mode "test" and sample_data), lands on
 * its overview, and the samples are on the advertisers, campaigns and offers pages. Every page of a
 * test network says so (the notice above the page, the switcher's badge and group, the phone's
 * header), for a super_user, an administrator and a read_only key alike; Settings names the mode.
 * Under APP_ENV=test (the e2e server's) every network is a test network, so no live one is seen here.
 */

interface Network {
  id: string;
  name: string;
  mode: 'test' | 'live';
}
interface List<T> {
  items: T[];
}

const WIDTHS = [1280, 1024, 390] as const;
const NOTICE = 'test-network-notice';
const DIALOG = 'Create sandbox with sample data';

/** The sandbox button: in the side bar, or in the drawer below lg (the menu opens first). */
async function openSandboxDialog(page: Page, width: number) {
  if (width < 1024) await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('button', { name: DIALOG }).click();
  const dialog = page.getByRole('dialog', { name: DIALOG });
  await expect(dialog.getByLabel('Name')).toBeVisible();
  return dialog;
}

/**
 * The dialog at each width (light), then at 1280 in the dark theme; closed again each time. It is
 * shot as the window shows it: a full-page shot resizes the window for a moment, and at 1024 px
 * that narrowing unmounts the side bar the dialog opened from.
 */
async function dialogShots(page: Page, testInfo: TestInfo) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    const dialog = await openSandboxDialog(page, width);
    await screenshot(page, testInfo, `console-sandbox-dialog-${width}`, { fullPage: false });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    if (width < 1024) await page.keyboard.press('Escape'); // the drawer
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'dark' });
  const dialog = await openSandboxDialog(page, 1280);
  await screenshot(page, testInfo, 'console-sandbox-dialog-dark-1280', { fullPage: false });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await page.emulateMedia({ colorScheme: 'light' });
}

/** The overview at each width (light), and at 1280 and 390 in the dark theme. */
async function overviewShots(page: Page, testInfo: TestInfo) {
  for (const [width, scheme] of [
    [1280, 'light'],
    [1024, 'light'],
    [390, 'light'],
    [1280, 'dark'],
    [390, 'dark'],
  ] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width, height: 900 });
    await expect(page.getByTestId(NOTICE)).toBeVisible();
    await expect(page.getByTestId('count-advertisers')).not.toHaveText('0');
    await screenshot(page, testInfo, `console-sandbox-overview${scheme === 'dark' ? '-dark' : ''}-${width}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('a super_user creates a sandbox with sample data: marked as a test network on every page, its samples on their pages', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(180_000);
  const suffix = randomUUID().slice(0, 8);
  const before = await createNetwork(request, `Before sandbox ${suffix}`);
  const name = `Sandbox ${suffix}`;

  await signInToConsole(page, { next: `/console/n/${before.id}` });
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  await dialogShots(page, testInfo);

  // The dialog: the name prefilled, editable, and checked as the API checks it.
  const dialog = await openSandboxDialog(page, 1280);
  await expect(dialog.getByLabel('Name')).toHaveValue('Sandbox');
  await expect(dialog).toContainText('Its API keys are test keys (sk_test_…)');
  await expectNoSeriousA11yViolations(page, testInfo, 'sandbox-dialog');
  await dialog.getByLabel('Name').fill('');
  await dialog.getByRole('button', { name: 'Create sandbox' }).click();
  await expect(dialog.getByText('name must not be blank.')).toBeVisible();

  // The API's refusal, in its words: the request is changed on its way to ask for a live network,
  // which a service under APP_ENV=test refuses with a 400 naming `mode` (not a field of the form).
  const create = /\/api\/trpc\/[^?]*networks\.create/;
  await page.route(create, (route) => {
    const body = route.request().postDataJSON() as Record<string, Record<string, unknown>>;
    return route.continue({ postData: JSON.stringify({ 0: { ...body[0], mode: 'live' } }) });
  });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Create sandbox' }).click();
  await expect(dialog.getByRole('alert')).toContainText('every network is a test network');
  await page.unroute(create);

  // While the network and its samples are made, the dialog says so; held a moment to be seen.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(create, async (route) => {
    await held;
    await route.continue();
  });
  await dialog.getByRole('button', { name: 'Create sandbox' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Creating the sandbox and its sample advertisers, campaigns, podcasts and offers…');
  await expect(dialog.getByRole('button', { name: 'Create sandbox' })).toBeDisabled();
  release();

  // On to the new network's overview, with its samples counted.
  await expect(dialog).toBeHidden();
  const toast = page.getByText(`Sandbox “${name}” created with sample data`).first();
  await expect(toast).toBeVisible();
  await expect(page).not.toHaveURL(new RegExp(`/console/n/${before.id}`));
  await expect(page).toHaveURL(/\/console\/n\/net_[^/]+$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  const id = decodeURIComponent(new URL(page.url()).pathname.split('/')[3]!);
  const sandbox = await v1<Network>(request, 'GET', `/networks/${id}`);
  expect(sandbox).toMatchObject({ name, mode: 'test' });

  const [advertisers, campaigns, offers] = await Promise.all([
    v1<List<{ name: string }>>(request, 'GET', `/networks/${id}/advertisers?limit=100`),
    v1<List<{ name: string }>>(request, 'GET', `/networks/${id}/campaigns?limit=100`),
    v1<List<{ id: string; status: string }>>(request, 'GET', `/networks/${id}/offers?limit=100`),
  ]);
  expect(advertisers.items.length).toBeGreaterThan(0);
  expect(campaigns.items.length).toBeGreaterThan(0);
  expect(offers.items.length).toBeGreaterThan(0);
  await expect(page.getByTestId('count-advertisers')).toHaveText(String(advertisers.items.length));

  // The test network is unmistakable: the notice, the switcher's badge and group.
  const notice = page.getByTestId(NOTICE);
  await expect(notice).toContainText('Test network — a sandbox.');
  await expect(notice).toContainText('Its API keys are test keys (sk_test_…)');
  const switcher = page.getByLabel('Network', { exact: true });
  await expect(switcher).toHaveValue(id);
  await expect(switcher.locator('optgroup[label="Test networks (sandboxes)"] option:checked')).toHaveText(name);
  await expect(page.locator('aside').getByText('Test', { exact: true })).toBeVisible();
  await expectNoSeriousA11yViolations(page, testInfo, 'sandbox-overview');
  await expect(toast).toBeHidden(); // not in the screenshots
  await overviewShots(page, testInfo);

  // The samples on their pages, each page still marked.
  const nav = page.getByRole('navigation', { name: 'Console' });
  await nav.getByRole('link', { name: 'Advertisers', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Advertisers' })).toBeVisible();
  await expect(notice).toBeVisible();
  for (const advertiser of advertisers.items) await expect(page.getByRole('row').filter({ hasText: advertiser.name })).toBeVisible();

  await nav.getByRole('link', { name: 'Campaigns', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Campaigns' })).toBeVisible();
  await expect(notice).toBeVisible();
  for (const campaign of campaigns.items) await expect(page.getByRole('row').filter({ hasText: campaign.name }).first()).toBeVisible();

  await nav.getByRole('link', { name: 'Offers', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Offers' })).toBeVisible();
  await expect(notice).toBeVisible();
  const table = page.getByRole('table', { name: 'Offers' });
  await expect(table.getByRole('row')).toHaveCount(offers.items.length + 1);
  for (const status of new Set(offers.items.map((offer) => offer.status)))
    await expect(table.getByRole('row').filter({ hasText: status }).first()).toBeVisible();

  // Settings names the mode, read-only.
  await nav.getByRole('link', { name: 'Settings', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Network settings' })).toBeVisible();
  await expect(page.getByTestId('network-mode')).toContainText('Test');
  await expect(page.getByTestId('network-mode')).toContainText('Fixed when the network was created.');
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, testInfo, `console-sandbox-settings-${width}`);
  }
});

test('an administrator and a read_only key of a test network see that it is one, at 1280 and 390 px', async ({ browser, request }, testInfo) => {
  test.setTimeout(120_000);
  const suffix = randomUUID().slice(0, 8);
  const sandbox = await post<Network>(request, '/networks', { name: `Keys sandbox ${suffix}`, mode: 'test', sample_data: true });
  expect(sandbox.mode).toBe('test');

  for (const role of ['administrator', 'read_only'] as const) {
    const account = await post<{ api_key: { token: string } }>(request, `/networks/${sandbox.id}/service-accounts`, {
      name: `${role} ${suffix}`,
      role,
    });
    expect(account.api_key.token).toMatch(/^sk_test_/);
    const context = await browser.newContext();
    const page = await context.newPage();
    await signInToConsole(page, { token: account.api_key.token, next: `/console/n/${sandbox.id}` });
    await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
    await expect(page.getByTestId(NOTICE)).toContainText('Test network — a sandbox.');
    await expect(page.locator('aside').getByText('Test', { exact: true })).toBeVisible();
    // No sandbox button for a key that cannot create networks.
    await expect(page.getByRole('button', { name: DIALOG })).toHaveCount(0);

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByTestId('header-network')).toContainText(sandbox.name);
    await expect(page.getByTestId('header-network')).toContainText('Test');
    await expect(page.getByTestId(NOTICE)).toBeVisible();
    if (role === 'read_only') {
      await page.goto(`/console/n/${sandbox.id}/settings`);
      await expect(page.getByText('Only the network’s administrators can change these.')).toBeVisible();
      await expect(page.getByTestId('network-mode')).toContainText('sk_test_');
      await expectNoSeriousA11yViolations(page, testInfo, 'sandbox-settings-read-only-390');
    }
    await context.close();
  }
});
