import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { createNetwork, e2eToken, expectNoSeriousA11yViolations, screenshot, signInToConsole } from './console-helpers';

const SECTIONS = [
  'Overview',
  'Members',
  'API keys',
  'Service accounts',
  'Webhooks',
  'Advertisers',
  'Campaigns',
  'Podcasts',
  'Offers',
  'Creatives',
  'Review queue',
  'Events',
  'Audit log',
  'Settings',
  'My keys',
];

test.describe('console shell', () => {
  test('signed out, /console goes to sign-in; a bad key is refused with a clear message', async ({ page }, testInfo) => {
    await page.goto('/console');
    await expect(page).toHaveURL(/\/console\/sign-in/);
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expectNoSeriousA11yViolations(page, testInfo, 'sign-in');
    await screenshot(page, testInfo, 'console-sign-in-1280');

    await page.getByLabel('API key').fill(`sk_test_${'x'.repeat(40)}`);
    await page.getByRole('button', { name: 'Sign in with API key' }).click();
    await expect(page.getByText(/This key was not accepted/)).toBeVisible();
    await expect(page).toHaveURL(/\/console\/sign-in/);

    await page.getByLabel('API key').fill('not-a-key');
    await page.getByRole('button', { name: 'Sign in with API key' }).click();
    await expect(page.getByText(/does not look like an API key/)).toBeVisible();
    expect(await page.evaluate(() => Object.keys(sessionStorage))).not.toContain('ans.console.apiKey');
  });

  test('before the script runs, the sign-in forms cannot send the key or the address in a URL', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/console/sign-in');
    await expect(page.getByLabel('API key')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign in with API key' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Email me a link' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeDisabled();
    await expect(page.locator('form')).toHaveCount(2);
    for (const form of await page.locator('form').all()) await expect(form).toHaveAttribute('method', 'post');
    await context.close();
  });

  test('sign in, switch networks, navigate every section, create a network, sign out', async ({ page, request }, testInfo) => {
    const suffix = randomUUID().slice(0, 8);
    const first = await createNetwork(request, `Shell A ${suffix}`);
    const second = await createNetwork(request, `Shell B ${suffix}`);

    await signInToConsole(page);
    await expect(page).toHaveURL(/\/console\/n\/net_/);
    const switcher = page.getByLabel('Network');
    await expect(switcher).toBeVisible();
    await expect(switcher.locator('option', { hasText: first.name })).toHaveCount(1);

    await page.goto(`/console/n/${first.id}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
    await expect(switcher).toHaveValue(first.id);
    await expectNoSeriousA11yViolations(page, testInfo, 'overview');
    await screenshot(page, testInfo, 'console-overview-1280');

    const nav = page.getByRole('navigation', { name: 'Console' });
    for (const section of SECTIONS) {
      await nav.getByRole('link', { name: section, exact: true }).click();
      await expect(page.getByRole('heading', { level: 1, name: section })).toBeVisible();
      await expect(nav.getByRole('link', { name: section, exact: true })).toHaveAttribute('aria-current', 'page');
    }

    // Switching keeps the section.
    await nav.getByRole('link', { name: 'Webhooks', exact: true }).click();
    // The switcher keeps the section the page is on: switch once the navigation has happened.
    await expect(page).toHaveURL(new RegExp(`/console/n/${first.id}/webhooks$`));
    await switcher.selectOption(second.id);
    await expect(page).toHaveURL(new RegExp(`/console/n/${second.id}/webhooks$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();

    // A super_user creates a network from the switcher.
    await page.getByRole('button', { name: 'Create network' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create network' });
    await dialog.getByRole('button', { name: 'Create network' }).click();
    await expect(dialog.getByText('name must not be blank.')).toBeVisible();
    const created = `Shell C ${suffix}`;
    await dialog.getByLabel('Name').fill(created);
    await dialog.getByRole('button', { name: 'Create network' }).click();
    await expect(dialog).toBeHidden();
    await expect(switcher.locator('option:checked')).toHaveText(created);
    await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/console\/sign-in$/);
    expect(await page.evaluate(() => sessionStorage.getItem('ans.console.apiKey'))).toBeNull();
    await page.goto(`/console/n/${first.id}/members`);
    await expect(page).toHaveURL(/\/console\/sign-in/);
  });

  test('a key revoked while signed in returns to sign-in with a message', async ({ page, request }) => {
    const minted = await request.post('/v1/apikeys', {
      headers: { Authorization: `Bearer ${e2eToken()}` },
      data: { key_name: `shell revoke ${randomUUID().slice(0, 8)}`, super_user: true },
    });
    expect(minted.status()).toBe(201);
    const key = (await minted.json()) as { id: string; token: string };

    await signInToConsole(page, { token: key.token });
    await expect(page.getByLabel('Network')).toBeVisible();

    const revoked = await request.delete(`/v1/apikeys/${key.id}`, { headers: { Authorization: `Bearer ${key.token}` } });
    expect(revoked.ok()).toBe(true);

    await page.reload();
    await expect(page).toHaveURL(/\/console\/sign-in/);
    await expect(page.getByText('Your key was revoked or expired — sign in again.')).toBeVisible();
  });

  test('a scoped key sees only its networks, no "Create network", and a sentence for other networks', async ({ page, request }) => {
    const suffix = randomUUID().slice(0, 8);
    const mine = await createNetwork(request, `Scoped mine ${suffix}`);
    const other = await createNetwork(request, `Scoped other ${suffix}`);
    // A service account's key holds exactly the account's role on its one network.
    const account = await request.post(`/v1/networks/${mine.id}/service-accounts`, {
      headers: { Authorization: `Bearer ${e2eToken()}` },
      data: { name: `scoped ${suffix}`, role: 'read_only' },
    });
    expect(account.status()).toBe(201);
    const key = ((await account.json()) as { api_key: { token: string } }).api_key;

    await signInToConsole(page, { token: key.token });
    await expect(page).toHaveURL(new RegExp(`/console/n/${mine.id}$`));
    const switcher = page.getByLabel('Network');
    await expect(switcher.locator('option')).toHaveText([mine.name]);
    await expect(page.getByText('read only', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Create network' })).toHaveCount(0);

    await page.goto(`/console/n/${other.id}/webhooks`);
    await expect(page.getByText('No access to this network')).toBeVisible();
  });

  // What the overview's first paint loads (docs/PERFORMANCE.md, "Console (Lighthouse)"): no route
  // prefetches until a link is pointed at, and no zod or react-hook-form until a form opens.
  test('the overview prefetches on intent and loads form code only when a form opens', async ({ page, request }) => {
    const network = await createNetwork(request, `Shell lean ${randomUUID().slice(0, 8)}`);
    const prefetches: string[] = [];
    const formScripts: string[] = [];
    page.on('request', (req) => {
      if (new URL(req.url()).searchParams.has('_rsc')) prefetches.push(req.url());
    });
    page.on('response', async (response) => {
      if (!/\/_next\/static\/chunks\/.+\.js$/.test(response.url())) return;
      const body = await response.text().catch(() => '');
      // zod's error class and react-hook-form's context keep these names when minified.
      if (body.includes('ZodError') || body.includes('HookFormContext')) formScripts.push(response.url());
    });
    // Signed in without the sign-in page (which has a form, and navigates on the client): the
    // key is in the tab's sessionStorage before the overview's first script runs, on a cold cache.
    await page.addInitScript((token) => sessionStorage.setItem('ans.console.apiKey', token), e2eToken());
    await page.goto(`/console/n/${network.id}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
    await expect(page.getByTestId('count-advertisers')).toHaveText('0');
    await expect(page.getByText('No webhooks yet')).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(prefetches, 'route prefetches before any intent').toEqual([]);
    expect(formScripts, 'form code on the overview').toEqual([]);

    const nav = page.getByRole('navigation', { name: 'Console' });
    await nav.getByRole('link', { name: 'Members', exact: true }).hover();
    await expect.poll(() => prefetches.some((url) => url.includes(`/console/n/${network.id}/members?`))).toBe(true);

    await page.getByRole('button', { name: 'Create network' }).click();
    await expect(page.getByRole('dialog', { name: 'Create network' }).getByLabel('Name')).toBeVisible();
    await expect.poll(() => formScripts.length).toBeGreaterThan(0);
  });

  test('at 390 px the navigation is behind a menu button', async ({ page, request }, testInfo) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const network = await createNetwork(request, `Shell narrow ${randomUUID().slice(0, 8)}`);
    await page.goto('/console/sign-in');
    await expectNoSeriousA11yViolations(page, testInfo, 'sign-in-390');
    await signInToConsole(page, { next: `/console/n/${network.id}` });
    await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Console' })).toBeHidden();
    await expectNoSeriousA11yViolations(page, testInfo, 'overview-390');
    await screenshot(page, testInfo, 'console-overview-390');

    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await expect(menu.getByLabel('Network')).toHaveValue(network.id);
    await menu.getByRole('link', { name: 'Members', exact: true }).click();
    await expect(menu).toBeHidden();
    await expect(page.getByRole('heading', { level: 1, name: 'Members' })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/console/n/${network.id}/members$`));
  });

  test("widened from 390 to 1280 px, the page never falls into the navigation's column", async ({ page, request }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const network = await createNetwork(request, `Shell widen ${randomUUID().slice(0, 8)}`);
    await signInToConsole(page, { next: `/console/n/${network.id}` });
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeVisible();
    // The browser fires resize before it tells matchMedia's listeners, so before React swaps the top
    // bar for the side bar: what the handler measures is the first frame at 1280 px, laid out by CSS
    // alone. The side bar's grid column once took the page (256 px wide) until the next render.
    await page.evaluate(() => {
      window.addEventListener(
        'resize',
        () =>
          document
            .getElementById('main')!
            .setAttribute('data-width-on-resize', String(document.getElementById('main')!.getBoundingClientRect().width)),
        {
          once: true,
        },
      );
    });
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(page.getByRole('complementary')).toBeVisible();
    const main = page.locator('#main');
    await expect(main).toHaveAttribute('data-width-on-resize', /\d/);
    expect(Number(await main.getAttribute('data-width-on-resize'))).toBeGreaterThanOrEqual(1280 - 256 - 20);
    expect((await main.boundingBox())!.width).toBeGreaterThanOrEqual(1280 - 256 - 20);
  });
});
