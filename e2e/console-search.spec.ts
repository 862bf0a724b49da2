import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { createNetwork, post, expectNoSeriousA11yViolations, screenshot, signInToConsole } from './console-helpers';

/*
 * The command palette (issue 35): Ctrl-K from any page finds the network's objects by name or id
 * through GET /networks/{n}/search — only what the signed-in key may read — and jumps to pages.
 */

test('Ctrl-K finds campaigns, podcasts, keys and pages, and opens them', async ({ page, request }, testInfo) => {
  test.setTimeout(120_000);
  const suffix = randomUUID().slice(0, 8);
  const { id: n } = await createNetwork(request, `Search ${suffix}`);
  const other = await createNetwork(request, `Elsewhere ${suffix}`);
  const advertiser = await post<{ id: string }>(request, `/networks/${n}/advertisers`, { name: 'Acme Mattresses' });
  const campaign = await post<{ id: string }>(request, `/networks/${n}/campaigns`, {
    name: 'Winter Sleep Sale',
    advertiser_id: advertiser.id,
    script: 'Sleep better.',
  });
  await post(request, `/networks/${n}/podcasts`, { name: 'Morning Commute', host_name: 'Sam Rivera' });
  const bot = await post<{ api_key: { id: string; token: string } }>(request, `/networks/${n}/service-accounts`, {
    name: 'Nightly export',
    role: 'read_only',
  });
  const elsewhere = await post<{ id: string }>(request, `/networks/${other.id}/advertisers`, { name: 'Winter Elsewhere Co' });
  const hidden = await post<{ id: string }>(request, `/networks/${other.id}/campaigns`, {
    name: 'Winter Hidden',
    advertiser_id: elsewhere.id,
    script: 'x',
  });

  await signInToConsole(page, { next: `/console/n/${n}/offers` });
  await expect(page.getByRole('heading', { name: 'Offers' })).toBeVisible();

  const palette = page.getByRole('dialog', { name: 'Search the console' });
  const input = palette.getByRole('combobox');
  await page.keyboard.press('Control+k');
  await expect(input).toBeFocused();
  await input.fill('winter');
  // The network's campaign, best match first; nothing of the other network, though its names match too.
  const option = palette.getByRole('option', { name: /Winter Sleep Sale/ });
  await expect(option).toBeVisible();
  await expect(palette.getByRole('option', { name: /Winter Hidden/ })).toHaveCount(0);
  await expect(palette.getByRole('option', { name: /Elsewhere/ })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, testInfo, 'command-palette');
  await screenshot(page, testInfo, 'console-command-palette-1280');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/console/n/${n}/campaigns/${campaign.id}$`));
  await expect(palette).toBeHidden();

  // A podcast by its host; a key by its owner's name is not a key name, but the key is found by its id.
  await page.keyboard.press('Control+k');
  await input.fill('rivera');
  await expect(palette.getByRole('option', { name: /Morning Commute/ })).toBeVisible();
  await input.fill(bot.api_key.id);
  await palette.getByRole('option', { name: /default/ }).click();
  await expect(page).toHaveURL(new RegExp(`/api-keys\\?key=${bot.api_key.id}$`));
  await expect(page.getByRole('dialog', { name: 'API key' })).toBeVisible();
  await page.keyboard.press('Escape');

  // Pages and networks by name; another network's id finds nothing of it but the network itself.
  await page.keyboard.press('Control+k');
  await input.fill('audit');
  await palette.getByRole('option', { name: 'Audit log' }).click();
  await expect(page).toHaveURL(new RegExp(`/console/n/${n}/audit-log$`));
  await page.keyboard.press('Control+k');
  await input.fill(hidden.id);
  await expect(palette.getByText(`Nothing matches “${hidden.id}”.`)).toBeVisible();
  await input.fill(`Elsewhere ${suffix}`);
  await palette.getByRole('option', { name: new RegExp(`Elsewhere ${suffix}`) }).click();
  await expect(page).toHaveURL(new RegExp(`/console/n/${other.id}$`));
  // A network made after the console loaded its list of networks: found by the server's search.
  const late = await createNetwork(request, `Latecomer ${suffix}`);
  await page.keyboard.press('Control+k');
  await input.fill(`latecomer ${suffix}`);
  await palette.getByRole('option', { name: new RegExp(`Latecomer ${suffix}`) }).click();
  await expect(page).toHaveURL(new RegExp(`/console/n/${late.id}$`));

  // On a phone, the top bar's search button opens it.
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto(`/console/n/${n}`);
  await page.getByRole('button', { name: 'Search' }).click();
  await input.fill('sleep');
  await expect(palette.getByRole('option', { name: /Winter Sleep Sale/ })).toBeVisible();
  await expectNoSeriousA11yViolations(page, testInfo, 'command-palette-390');
  await screenshot(page, testInfo, 'console-command-palette-390');
  // Widening the window swaps the top bar for the side bar; the open palette stays, with what was typed.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.locator('aside')).toBeVisible(); // (behind the modal palette, so out of the accessibility tree)
  await expect(palette.getByRole('option', { name: /Winter Sleep Sale/ })).toBeVisible();
  await expect(input).toHaveValue('sleep');
});

test('a read_only key finds what it may read, and no keys', async ({ page, request }) => {
  const suffix = randomUUID().slice(0, 8);
  const { id: n } = await createNetwork(request, `Reader ${suffix}`);
  await post(request, `/networks/${n}/advertisers`, { name: `Orbit ${suffix}` });
  const reader = await post<{ api_key: { token: string } }>(request, `/networks/${n}/service-accounts`, {
    name: `Orbit reader ${suffix}`,
    role: 'read_only',
  });
  await signInToConsole(page, { token: reader.api_key.token, next: `/console/n/${n}/advertisers` });
  await expect(page.getByRole('heading', { name: 'Advertisers' })).toBeVisible();
  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Search the console' });
  await palette.getByRole('combobox').fill('orbit');
  await expect(palette.getByRole('option', { name: new RegExp(`Orbit ${suffix}`) })).toBeVisible();
  // Its own key is named "default", as is every service account's first key: an administrator finds
  // those (the first test); a read_only key, which may not list the network's keys, finds none.
  await palette.getByRole('combobox').fill('default');
  await expect(palette.getByText('Nothing matches “default”.')).toBeVisible();
});
