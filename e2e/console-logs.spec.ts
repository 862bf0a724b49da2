import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { DEEP, createNetwork, v1, expectNoSeriousA11yViolations, screenshot, signInToConsole } from './console-helpers';

/*
 * The event log and the audit log in the console (issue 35): each a page with its filters in the
 * URL (type or action, object, actor, days), newest first, every object it names a link to where
 * the console shows it.
 */

/** The local calendar day of the browser (the e2e browser runs in the machine's zone), `days` from today. */
function day(page: Page, days: number): Promise<string> {
  return page.evaluate((offset) => {
    const d = new Date();
    d.setDate(d.getDate() + offset);
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  }, days);
}

test('events: filter by type, object and day; an event opens with links to its objects', async ({ page, request }, testInfo) => {
  test.setTimeout(120_000);
  const { id: n } = await createNetwork(request, `Events ${randomUUID().slice(0, 8)}`);
  const advertiser = await v1<{ id: string }>(request, 'POST', `/networks/${n}/advertisers`, { name: 'Acme' });
  const campaign = await v1<{ id: string }>(request, 'POST', `/networks/${n}/campaigns`, {
    name: 'Spring sale',
    advertiser_id: advertiser.id,
    script: 'Sleep better tonight with Acme mattresses.',
    status: 'active',
  });
  const podcast = await v1<{ id: string }>(request, 'POST', `/networks/${n}/podcasts`, { name: 'Morning Commute', host_name: 'Sam' });
  await v1(request, 'POST', `/networks/${n}/podcasts/${podcast.id}/opt-in`, {});
  const accepted = await v1<{ id: string }>(request, 'POST', `/networks/${n}/offers`, { campaign_id: campaign.id, podcast_id: podcast.id });
  await v1(request, 'POST', `/networks/${n}/offers/${accepted.id}/accept`, {});
  const rejected = await v1<{ id: string }>(request, 'POST', `/networks/${n}/offers`, { campaign_id: campaign.id, podcast_id: podcast.id });
  await v1(request, 'POST', `/networks/${n}/offers/${rejected.id}/reject`, { reason: 'Not our audience' });

  await signInToConsole(page, { next: `/console/n/${n}/events` });
  const table = page.getByRole('table', { name: 'Events' });
  const rows = table.getByRole('row').filter({ has: page.getByRole('cell') });
  // Newest first (the creative's creative.ready comes whenever its synthesis ends: left out).
  const types = async () =>
    (await rows.evaluateAll((trs) => trs.map((tr) => tr.querySelector('td')?.textContent ?? ''))).filter((t) => !t.startsWith('creative.'));
  await expect.poll(types).toEqual(['offer.rejected', 'offer.accepted', 'optin.completed']);
  await expect(rows.filter({ hasText: 'offer.rejected' })).toContainText('Not our audience');
  await screenshot(page, testInfo, 'console-events-1280');

  await page.getByLabel('Type').selectOption('offer.rejected');
  await expect(page).toHaveURL(/[?&]type=offer\.rejected/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('offer.rejected');
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(table).toContainText('optin.completed');

  // The object filter finds every event whose data names the offer, whatever its type.
  const objectFilter = page.getByLabel('Object id');
  await objectFilter.fill(accepted.id);
  await objectFilter.press('Enter');
  await expect(page).toHaveURL(new RegExp(`[?&]object=${accepted.id}`));
  await expect(table).toContainText('offer.accepted');
  await expect(table).not.toContainText('offer.rejected');
  await expect(table).not.toContainText('optin.completed');

  // Days: tomorrow onwards has nothing; today has them again; the range survives a reload.
  await page.getByLabel('Occurred from').fill(await day(page, 1));
  await expect(page.getByText('No events match these filters')).toBeVisible();
  await page.getByLabel('Occurred from').fill(await day(page, 0));
  await page.getByLabel('to', { exact: true }).fill(await day(page, 0));
  await expect(table).toContainText('offer.accepted');
  await page.reload();
  await expect(page.getByLabel('Object id')).toHaveValue(accepted.id);
  await expect(table).toContainText('offer.accepted');
  await expect(table).not.toContainText('optin.completed');

  // Export CSV: the whole list as filtered, as a file.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^events-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync((await download.path())!, 'utf8')
    .trim()
    .split('\r\n');
  expect(csv[0]).toBe('id,network_id,type,occurred_at,data');
  expect(csv.slice(1).some((line) => line.includes(',offer.accepted,') && line.includes(accepted.id))).toBe(true);
  expect(csv.some((line) => line.includes('optin.completed') || line.includes('offer.rejected'))).toBe(false);

  // An event opens in a sheet (its id in the URL) naming its objects; each goes to its own sheet or page.
  await rows.filter({ hasText: 'offer.accepted' }).getByRole('cell').first().click();
  const sheet = page.getByRole('dialog', { name: 'Event' });
  await expect(sheet).toContainText('A campaign offer is accepted.');
  await expect(page).toHaveURL(/[?&]event=evt_/);
  await expect(sheet.getByRole('link', { name: campaign.id })).toHaveAttribute('href', `/console/n/${n}/campaigns/${campaign.id}`);
  await expectNoSeriousA11yViolations(page, testInfo, 'event-sheet');
  await screenshot(page, testInfo, 'console-event-sheet-1280');
  await sheet.getByRole('link', { name: accepted.id }).click();
  await expect(page).toHaveURL(new RegExp(`/offers\\?offer=${accepted.id}$`));
  await expect(page.getByRole('dialog', { name: 'Offer' })).toContainText('accepted');

  for (const width of [1024, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(`/console/n/${n}/events`);
    await expect(page.getByLabel('Events').getByText('optin.completed')).toBeVisible();
    if (DEEP || width !== 1024) await expectNoSeriousA11yViolations(page, testInfo, `events-${width}`);
    await screenshot(page, testInfo, `console-events-${width}`);
  }
});

test('audit log: who changed what, filtered by object type, object, key and day; administrators only', async ({ page, request }, testInfo) => {
  test.setTimeout(120_000);
  const { id: n } = await createNetwork(request, `Audit ${randomUUID().slice(0, 8)}`);
  const bot = await v1<{ id: string; api_key: { id: string; token: string } }>(request, 'POST', `/networks/${n}/service-accounts`, {
    name: 'Deploy bot',
    role: 'administrator',
  });
  const reader = await v1<{ id: string; api_key: { id: string; token: string } }>(request, 'POST', `/networks/${n}/service-accounts`, {
    name: 'Dashboards',
    role: 'read_only',
  });
  // The bot, with its own key, subscribes a webhook and revokes the reader's key.
  const webhook = await v1<{ id: string }>(
    request,
    'POST',
    `/networks/${n}/webhooks`,
    { url: 'http://127.0.0.1:9/audit-hooks', events: ['offer.accepted'] },
    bot.api_key.token,
  );
  await v1(request, 'DELETE', `/networks/${n}/apikeys/${reader.api_key.id}`, undefined, bot.api_key.token);

  await signInToConsole(page, { next: `/console/n/${n}/audit-log` });
  const table = page.getByRole('table', { name: 'Audit log' });
  const rows = table.getByRole('row').filter({ has: page.getByRole('cell') });
  await expect(rows.first()).toContainText('api_key.revoked');
  await expect(table).toContainText('service_account.created');
  await screenshot(page, testInfo, 'console-audit-log-1280');

  await page.getByLabel('Object type').selectOption('webhook');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('webhook.created');
  await expect(rows.first().getByRole('link', { name: webhook.id })).toHaveAttribute('href', `/console/n/${n}/webhooks/${webhook.id}`);
  await page.getByRole('button', { name: 'Clear filters' }).click();

  // "By" names the key (service accounts' first keys are all "default") and links its id to it; its name filters to its changes.
  await expect(rows.first().getByRole('link', { name: bot.api_key.id })).toHaveAttribute('href', `/console/n/${n}/api-keys?key=${bot.api_key.id}`);
  await rows.first().getByRole('link', { name: 'default', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]actor=${bot.api_key.id}`));
  await expect(page.getByLabel('By key')).toHaveValue(bot.api_key.id);
  await expect(rows).toHaveCount(2);
  await expect(table).not.toContainText('service_account.created');

  const objectFilter = page.getByLabel('Object id');
  await objectFilter.fill(reader.api_key.id);
  await objectFilter.press('Enter');
  await expect(rows).toHaveCount(1);
  await page.getByLabel('When from').fill(await day(page, 1));
  await expect(page.getByText('No audit log entries match these filters')).toBeVisible();
  await page.getByLabel('When from').fill(await day(page, 0));
  await expect(rows).toHaveCount(1);
  await expectNoSeriousA11yViolations(page, testInfo, 'audit-log');

  // The revoked key's link opens its sheet on API keys.
  await rows.first().getByRole('link', { name: reader.api_key.id }).click();
  await expect(page).toHaveURL(new RegExp(`/api-keys\\?key=${reader.api_key.id}$`));
  await expect(page.getByRole('dialog', { name: 'API key' })).toContainText('revoked');

  for (const width of [1024, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(`/console/n/${n}/audit-log`);
    await expect(page.getByText('service_account.created').first()).toBeVisible();
    if (DEEP || width !== 1024) await expectNoSeriousA11yViolations(page, testInfo, `audit-log-${width}`);
    await screenshot(page, testInfo, `console-audit-log-${width}`);
  }

  // A read_only key sees why the page is empty, not an error.
  const readerKey = await v1<{ id: string; api_key: { token: string } }>(request, 'POST', `/networks/${n}/service-accounts`, {
    name: 'Reader',
    role: 'read_only',
  });
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInToConsole(page, { token: readerKey.api_key.token, next: `/console/n/${n}/audit-log` });
  await expect(page.getByText('For administrators')).toBeVisible();
});

test('offers, creatives and campaigns filter by the days they were made', async ({ page, request }) => {
  const { id: n } = await createNetwork(request, `Days ${randomUUID().slice(0, 8)}`);
  const advertiser = await v1<{ id: string }>(request, 'POST', `/networks/${n}/advertisers`, { name: 'Acme' });
  const campaign = await v1<{ id: string }>(request, 'POST', `/networks/${n}/campaigns`, {
    name: 'Autumn sale',
    advertiser_id: advertiser.id,
    script: 'Sleep better.',
    status: 'active',
  });
  const podcast = await v1<{ id: string }>(request, 'POST', `/networks/${n}/podcasts`, { name: 'Evening Show', host_name: 'Kim' });
  await v1(request, 'POST', `/networks/${n}/podcasts/${podcast.id}/opt-in`, {});
  await v1(request, 'POST', `/networks/${n}/offers`, { campaign_id: campaign.id, podcast_id: podcast.id, price_cents: 27_100, currency: 'USD' });

  await signInToConsole(page);
  for (const [section, label, shows] of [
    ['offers', 'Offered', '$271.00'],
    ['campaigns', 'Created', 'Autumn sale'],
  ] as const) {
    await page.goto(`/console/n/${n}/${section}`);
    const table = page.getByRole('table', { name: section === 'offers' ? 'Offers' : 'Campaigns' });
    await expect(table).toContainText(shows);
    await page.getByLabel(`${label} from`).fill(await day(page, 1));
    await expect(page.getByText(/match these filters/)).toBeVisible();
    await page.getByLabel(`${label} from`).fill(await day(page, -1));
    await page.getByLabel('to', { exact: true }).fill(await day(page, 0));
    await expect(page).toHaveURL(/[?&]from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}/);
    await expect(table).toContainText(shows);
  }
  await page.goto(`/console/n/${n}/creatives?from=${await day(page, 1)}`);
  await expect(page.getByLabel('Made from')).toHaveValue(await day(page, 1));
});
