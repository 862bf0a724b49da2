import { randomUUID } from 'node:crypto';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { createNetwork, expectNoSeriousA11yViolations, post, screenshot, signInToConsole, v1 } from './console-helpers';

/*
 * The network's Settings page (console/n/[networkId]/settings): an administrator renames the
 * network and limits its keys' lifetime (networks.update, only the changed fields with the version
 * read), the switcher shows the new name, a stale version reloads the form, the key-minting dialog
 * names the limit and shows the API's refusal of a later end; a read_only member sees the values.
 */

interface Network {
  id: string;
  name: string;
  max_key_lifetime_days: number | null;
  version: number;
}

/** The browser's <input type="datetime-local"> value for `days` from now, in the browser's own time zone. */
const localDateTimeIn = (page: Page, days: number) =>
  page.evaluate((d) => {
    const at = new Date(Date.now() + d * 86_400_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
  }, days);

/** The page at 1024, 1280 and 390 px, a screenshot of it (at one width outside `npm run test:deep`: e2e/console-helpers.ts). */
async function shots(page: Page, testInfo: TestInfo, name: string) {
  for (const width of [1024, 1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(page.getByRole('heading', { level: 1, name: 'Network settings' })).toBeVisible();
    await screenshot(page, testInfo, `console-${name}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('network settings: rename, limit key lifetime, conflicts, the mint dialog’s hint and refusal, no limit again', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const suffix = randomUUID().slice(0, 8);
  const network = await createNetwork(request, `Settings ${suffix}`);
  const n = network.id;
  await post(request, `/networks/${n}/service-accounts`, { name: `Robot ${suffix}`, role: 'read_only' });
  const renamed = `Renamed ${suffix}`;

  await signInToConsole(page, { next: `/console/n/${n}` });
  const nav = page.getByRole('navigation', { name: 'Console' });
  await nav.getByRole('link', { name: 'Settings', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Network settings' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Settings', exact: true })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByText(n, { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copy the network’s id' })).toBeVisible();

  // A test-mode network starts without a limit.
  const name = page.getByLabel('Name', { exact: true });
  await expect(name).toHaveValue(network.name);
  await expect(page.getByRole('radio', { name: 'No limit' })).toBeChecked();
  await expect(page.getByLabel('Longest lifetime in days')).toHaveCount(0);

  // The form refuses what the API refuses, at the field.
  await page.getByRole('radio', { name: 'Limit to' }).check();
  const days = page.getByLabel('Longest lifetime in days');
  await days.fill('0');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('max_key_lifetime_days must be at least 1.')).toBeVisible();
  await name.fill('');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('name must not be blank.')).toBeVisible();

  // Rename and limit to 30 days: a toast, and the switcher names the network anew.
  await name.fill(renamed);
  await days.fill('30');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Network settings saved.').first()).toBeVisible();
  const switcher = page.getByLabel('Network', { exact: true });
  await expect(switcher).toHaveValue(n);
  await expect(switcher.locator(`option[value="${n}"]`)).toHaveText(renamed);
  await expect(page.getByTestId('network-name')).toHaveText(renamed);

  let stored = await v1<Network>(request, 'GET', `/networks/${n}`);
  expect(stored).toMatchObject({ name: renamed, max_key_lifetime_days: 30 });
  // The audit log has the change.
  const audit = await v1<{ items: Array<{ action: string }> }>(request, 'GET', `/networks/${n}/audit-log?limit=10`);
  expect(audit.items.map((e) => e.action)).toContain('network.updated');

  // Kept across a reload.
  await page.reload();
  await expect(name).toHaveValue(renamed);
  await expect(page.getByRole('radio', { name: 'Limit to' })).toBeChecked();
  await expect(days).toHaveValue('30');
  await expect(switcher.locator(`option[value="${n}"]`)).toHaveText(renamed);

  await expectNoSeriousA11yViolations(page, testInfo, 'network-settings');
  await shots(page, testInfo, 'settings-admin');

  // Someone else changes the network meanwhile: the save is a 409, the form reloads with their change.
  stored = await v1<Network>(request, 'PATCH', `/networks/${n}`, { name: `${renamed} (theirs)`, version: stored.version });
  await days.fill('31');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Someone changed these settings meanwhile; reloaded — check and save again.' }),
  ).toBeVisible();
  await expect(name).toHaveValue(`${renamed} (theirs)`);
  await expect(days).toHaveValue('30');
  expect((await v1<Network>(request, 'GET', `/networks/${n}`)).max_key_lifetime_days).toBe(30);
  // Saving again from the reloaded form works, and sends only what changed.
  await name.fill(renamed);
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Someone changed' })).toHaveCount(0);
  await expect(switcher.locator(`option[value="${n}"]`)).toHaveText(renamed);
  await expect.poll(async () => (await v1<Network>(request, 'GET', `/networks/${n}`)).name).toBe(renamed);

  // The mint dialog names the limit, and shows the API's refusal of an end beyond it.
  await nav.getByRole('link', { name: 'API keys', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
  await page.getByRole('button', { name: 'Mint key' }).click();
  const mint = page.getByRole('dialog', { name: 'Mint an API key' });
  await expect(mint.getByText('Keys of this network live at most 30 days; leave the end empty for the longest allowed.')).toBeVisible();
  await mint.getByLabel('Key name').fill('too long');
  await mint.getByLabel('Owner').selectOption({ label: `Robot ${suffix} — Read only` });
  await mint.getByLabel('Expires (optional)').fill(await localDateTimeIn(page, 60));
  await mint.getByRole('button', { name: 'Mint key' }).click();
  await expect(mint.getByText('At most 30 days from now.')).toBeVisible();
  await expect(mint.getByLabel('Expires (optional)')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('dialog', { name: 'API key minted' })).toHaveCount(0);
  await mint.getByRole('button', { name: 'Cancel' }).click();
  await expect(mint).toBeHidden();

  // No limit again: null through the API, and the dialog's usual help.
  await nav.getByRole('link', { name: 'Settings', exact: true }).click();
  await page.getByRole('radio', { name: 'No limit' }).check();
  await expect(days).toHaveCount(0);
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect.poll(async () => (await v1<Network>(request, 'GET', `/networks/${n}`)).max_key_lifetime_days).toBeNull();
  expect((await v1<Network>(request, 'GET', `/networks/${n}`)).name).toBe(renamed);
  await nav.getByRole('link', { name: 'API keys', exact: true }).click();
  await page.getByRole('button', { name: 'Mint key' }).click();
  await expect(mint.getByText('Leave empty for a key that does not expire.')).toBeVisible();
  await expect(mint.getByText(/live at most/)).toHaveCount(0);
});

test('network settings: a read_only member sees the values, and no Save', async ({ page, request }, testInfo) => {
  const suffix = randomUUID().slice(0, 8);
  const network = await createNetwork(request, `Read settings ${suffix}`);
  const n = network.id;
  const before = await v1<Network>(request, 'GET', `/networks/${n}`);
  await v1(request, 'PATCH', `/networks/${n}`, { max_key_lifetime_days: 45, version: before.version });
  const account = await post<{ api_key: { token: string } }>(request, `/networks/${n}/service-accounts`, {
    name: `Reader ${suffix}`,
    role: 'read_only',
  });

  await signInToConsole(page, { token: account.api_key.token, next: `/console/n/${n}/settings` });
  await expect(page.getByRole('heading', { level: 1, name: 'Network settings' })).toBeVisible();
  await expect(page.getByText('Only the network’s administrators can change these.')).toBeVisible();
  await expect(page.getByTestId('network-name')).toHaveText(network.name);
  await expect(page.getByText(n, { exact: true })).toBeVisible();
  await expect(page.getByTestId('key-lifetime')).toHaveText('At most 45 days');
  await expect(page.getByRole('button', { name: 'Save settings' })).toHaveCount(0);
  const main = page.getByRole('main');
  await expect(main.getByRole('textbox')).toHaveCount(0);
  await expect(main.getByRole('radio')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, testInfo, 'network-settings-read-only');
  await shots(page, testInfo, 'settings-read-only');
});
