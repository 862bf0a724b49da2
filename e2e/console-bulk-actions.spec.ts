import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { createNetwork, e2eToken, expectNoSeriousA11yViolations, screenshot, signInToConsole } from './console-helpers';

/*
 * Bulk actions (issue 35, item 6), against the real server: rows are selected with checkboxes,
 * the bar runs the row's own procedure for each, and the results dialog reports every row — done,
 * or what the API answered — with "Retry failed". Races are made for real, through /v1, between
 * selecting and confirming.
 */

const auth = () => ({ Authorization: `Bearer ${e2eToken()}` });

async function post<T>(request: APIRequestContext, path: string, data: unknown = {}): Promise<T> {
  const response = await request.post(`/v1${path}`, { headers: auth(), data });
  expect(response.status(), `${path}: ${await response.text()}`).toBeLessThan(300);
  return (await response.json()) as T;
}

async function get<T>(request: APIRequestContext, path: string): Promise<T> {
  const response = await request.get(`/v1${path}`, { headers: auth() });
  expect(response.status(), `${path}: ${await response.text()}`).toBe(200);
  return (await response.json()) as T;
}

/** The bar shown while rows of `table` are selected. */
const bar = (page: Page, table: string) => page.getByRole('region', { name: `Selected ${table}` });

/** A row's line in the results dialog. */
const result = (dialog: Locator, name: string | RegExp) =>
  dialog.getByRole('list', { name: 'Results' }).getByRole('listitem').filter({ hasText: name });

/** Every checkbox and button of the bar and the rows is inside the window (nothing cut off at 390 px). */
async function expectInsideWindow(page: Page, locator: Locator) {
  const width = page.viewportSize()!.width;
  for (const box of await locator.evaluateAll((elements) => elements.map((e) => e.getBoundingClientRect().toJSON() as DOMRect))) {
    expect(box.left).toBeGreaterThanOrEqual(0);
    expect(box.right).toBeLessThanOrEqual(width + 1);
  }
}

test('API keys: revoke several at once; a race is reported on its row, the others are revoked', async ({ page, request }, testInfo) => {
  test.setTimeout(120_000);
  const network = await createNetwork(request, `Bulk keys ${randomUUID().slice(0, 8)}`);
  const n = network.id;
  const account = await post<{ id: string }>(request, `/networks/${n}/service-accounts`, { name: 'Nightly export', role: 'read_only' });
  type Key = { id: string; key_name: string; start: string; status: string };
  const keys: Key[] = [];
  for (const name of ['export one', 'export two', 'export three', 'export four']) {
    keys.push(await post<Key>(request, `/networks/${n}/service-accounts/${account.id}/keys`, { key_name: name }));
  }
  // A member's key: the member is removed while it is selected (the key leaves the network: 404).
  const invitation = await post<{ token: string }>(request, `/networks/${n}/invitations`, {
    email: `bulk-${randomUUID().slice(0, 8)}@example.test`,
    role: 'read_only',
  });
  const acceptedResponse = await request.post('/v1/invitations/accept', {
    headers: { Authorization: `Bearer ${invitation.token}` },
    data: { name: 'Rita Reader' },
  });
  expect(acceptedResponse.status()).toBeLessThan(300);
  const accepted = (await acceptedResponse.json()) as { member: { id: string }; api_key: Key };
  const memberKey = accepted.api_key;
  const label = (k: Key) => `Select ${k.key_name} (${k.start}…)`;
  const [one, two, three, four] = keys as [Key, Key, Key, Key];

  await signInToConsole(page, { next: `/console/n/${n}/api-keys` });
  const table = page.getByRole('table', { name: 'API keys' });
  await expect(table.getByRole('checkbox', { name: label(one) })).toBeVisible();

  // A revoked key has no checkbox (its row has no Revoke button either).
  await request.delete(`/v1/networks/${n}/apikeys/${four.id}`, { headers: auth() });
  await page.reload();
  await expect(table.getByRole('row').filter({ hasText: 'export four' })).toContainText('revoked');
  await expect(table.getByRole('checkbox', { name: label(four) })).toHaveCount(0);

  // The header checkbox: some → mixed, all → checked; the bar counts; changing a filter clears it.
  const all = table.getByRole('checkbox', { name: 'Select all loaded rows' });
  await table.getByRole('checkbox', { name: label(one) }).click();
  await expect(all).toHaveAttribute('aria-checked', 'mixed');
  await expect(bar(page, 'API keys')).toContainText('1 selected');
  await all.click();
  await expect(all).toBeChecked();
  // The account's first key ("default"), one, two, three and the member's.
  await expect(bar(page, 'API keys')).toContainText('5 selected');
  await page.getByLabel('Status').selectOption('active');
  await expect(bar(page, 'API keys')).toHaveCount(0);
  await expect(all).not.toBeChecked();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  // The filters live in the URL: a selection made before the page shows them cleared is cleared with them.
  await expect(page).not.toHaveURL(/status=/);
  await expect(page.getByLabel('Status')).toHaveValue('');

  // Selected with the keyboard: Space on each checkbox.
  for (const key of [one, two, three, memberKey]) {
    await table.getByRole('checkbox', { name: label(key) }).focus();
    await page.keyboard.press('Space');
    await expect(table.getByRole('checkbox', { name: label(key) })).toBeChecked();
  }
  await expect(bar(page, 'API keys')).toContainText('4 selected');
  // Selecting opened nothing: the checkbox is not a click on the row.
  await expect(page).not.toHaveURL(/[?&]key=/);

  // Meanwhile, through the API: "export two" is revoked (revoking is idempotent: that row is not a
  // failure, and says it was already revoked), and the member is removed, so their key is no longer
  // the network's (404 on its row).
  expect((await request.delete(`/v1/networks/${n}/apikeys/${two.id}`, { headers: auth() })).status()).toBe(200);
  expect((await request.delete(`/v1/networks/${n}/members/${accepted.member.id}`, { headers: auth() })).status()).toBe(200);

  await bar(page, 'API keys').getByRole('button', { name: 'Revoke' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Revoke 4 keys?' });
  await confirm.getByRole('button', { name: 'Revoke 4 keys' }).click();
  const results = page.getByRole('dialog', { name: 'Revoke keys' });
  await expect(results.getByTestId('bulk-summary')).toHaveText('2 revoked, 1 already revoked, 1 failed.');
  for (const key of [one, three]) {
    await expect(result(results, `${key.key_name} (`)).toContainText('Revoked');
    await expect(result(results, `${key.key_name} (`)).not.toContainText('Already');
  }
  // Revoked by someone else before the action: not a failure, nor this action's doing.
  await expect(result(results, `${two.key_name} (`)).toContainText('Already revoked');
  await expect(result(results, memberKey.key_name)).toContainText('It no longer exists. API key not found.');
  await expectNoSeriousA11yViolations(page, testInfo, 'bulk-keys-results');
  await screenshot(page, testInfo, 'console-bulk-keys-results-1280');

  // Retry the failed one only: the API still refuses it, and says so again.
  await results.getByRole('button', { name: 'Retry failed (1)' }).click();
  await expect(results.getByTestId('bulk-summary')).toHaveText('2 revoked, 1 already revoked, 1 failed.');
  await expect(result(results, memberKey.key_name)).toContainText('API key not found.');
  await results.getByRole('button', { name: 'Done' }).click();
  await expect(results).toBeHidden();

  // Through the API: the three are revoked.
  for (const key of [one, two, three]) {
    expect((await get<Key>(request, `/networks/${n}/apikeys/${key.id}`)).status, key.key_name).toBe('revoked');
  }
  // The list was refreshed: the revoked rows have no checkbox; the account's "default" key still does.
  await expect(table.getByRole('row').filter({ hasText: 'export one' })).toContainText('revoked');
  for (const key of [one, two, three]) await expect(table.getByRole('checkbox', { name: label(key) })).toHaveCount(0);
  await expect(table.getByRole('checkbox', { name: /^Select default / })).toBeVisible();
});

test('API keys: a selection made on the first page survives "Load more", and the action runs on every selected row', async ({ page, request }) => {
  test.setTimeout(120_000);
  const n = (await createNetwork(request, `Bulk pages ${randomUUID().slice(0, 8)}`)).id;
  type Key = { id: string; key_name: string; start: string; status: string };
  // 55 keys, more than the page's 50: two service accounts (at most 50 keys each), their first keys
  // ("default") and 53 more.
  const accounts = [
    await post<{ id: string }>(request, `/networks/${n}/service-accounts`, { name: 'Nightly export', role: 'read_only' }),
    await post<{ id: string }>(request, `/networks/${n}/service-accounts`, { name: 'Hourly sync', role: 'read_only' }),
  ];
  await Promise.all(
    Array.from({ length: 53 }, (_, i) =>
      post(request, `/networks/${n}/service-accounts/${accounts[i % 2]!.id}/keys`, { key_name: `key ${String(i).padStart(2, '0')}` }),
    ),
  );
  // Which keys the list's first page holds, and which only "Load more" brings (the list is in id order).
  const first = await get<{ items: Key[]; next_cursor: string | null }>(request, `/networks/${n}/apikeys?limit=50`);
  const rest = await get<{ items: Key[] }>(request, `/networks/${n}/apikeys?limit=50&cursor=${encodeURIComponent(first.next_cursor!)}`);
  expect(first.items).toHaveLength(50);
  expect(rest.items).toHaveLength(5);
  const named = (keys: Key[]) => keys.filter((k) => k.key_name !== 'default');
  const onFirst = [named(first.items)[0]!, named(first.items).at(-1)!];
  const onSecond = [named(rest.items)[0]!, named(rest.items).at(-1)!];
  const label = (k: Key) => `Select ${k.key_name} (${k.start}…)`;

  await signInToConsole(page, { next: `/console/n/${n}/api-keys` });
  const table = page.getByRole('table', { name: 'API keys' });
  for (const key of onFirst) await table.getByRole('checkbox', { name: label(key) }).click();
  await expect(bar(page, 'API keys')).toContainText('2 selected');
  await expect(table.getByRole('checkbox', { name: label(onSecond[0]!) })).toHaveCount(0);

  await page.getByRole('button', { name: 'Load more' }).click();
  for (const key of onSecond) await table.getByRole('checkbox', { name: label(key) }).click();
  // The first page's rows are still selected: four in all.
  for (const key of onFirst) await expect(table.getByRole('checkbox', { name: label(key) })).toBeChecked();
  await expect(bar(page, 'API keys')).toContainText('4 selected');
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);

  await bar(page, 'API keys').getByRole('button', { name: 'Revoke' }).click();
  await page.getByRole('alertdialog', { name: 'Revoke 4 keys?' }).getByRole('button', { name: 'Revoke 4 keys' }).click();
  const results = page.getByRole('dialog', { name: 'Revoke keys' });
  await expect(results.getByTestId('bulk-summary')).toHaveText('4 revoked.');
  await expect(results.getByRole('list', { name: 'Results' }).getByRole('listitem')).toHaveCount(4);
  for (const key of [...onFirst, ...onSecond]) await expect(result(results, `${key.key_name} (`)).toContainText('Revoked');
  await results.getByRole('button', { name: 'Done' }).click();

  // Through the API: those four are revoked, and no other key.
  const after = [
    ...(await get<{ items: Key[] }>(request, `/networks/${n}/apikeys?limit=200`)).items.filter((k) => k.status === 'revoked').map((k) => k.id),
  ].sort();
  expect(after).toEqual([...onFirst, ...onSecond].map((k) => k.id).sort());
});

test('offers: accept two (a third was rejected meanwhile: 409 on its row) and reject two with one reason', async ({ page, request }, testInfo) => {
  test.setTimeout(120_000);
  const network = await createNetwork(request, `Bulk offers ${randomUUID().slice(0, 8)}`);
  const n = network.id;
  const advertiser = await post<{ id: string }>(request, `/networks/${n}/advertisers`, { name: 'Acme Mattresses' });
  const campaign = await post<{ id: string }>(request, `/networks/${n}/campaigns`, {
    name: 'Spring sale',
    advertiser_id: advertiser.id,
    script:
      'Sleep better tonight with Acme mattresses, made to order in Ohio and delivered to your door in three days, with a hundred nights to try it at home.',
    status: 'active',
    starts_at: '2027-03-01T09:00:00Z',
    ends_at: '2027-04-01T09:00:00Z',
    budget_cents: 250_000,
    currency: 'USD',
  });
  const offers: Record<string, string> = {};
  for (const show of ['Night Owls', 'Morning Larks', 'Day Trippers', 'Long Haul', 'Late Shift', 'Quiet Hour']) {
    const podcast = await post<{ id: string }>(request, `/networks/${n}/podcasts`, { name: show, host_name: 'Sam Host' });
    await post(request, `/networks/${n}/podcasts/${podcast.id}/opt-in`);
    offers[show] = (
      await post<{ id: string }>(request, `/networks/${n}/offers`, {
        campaign_id: campaign.id,
        podcast_id: podcast.id,
        price_cents: 12_000,
        currency: 'USD',
      })
    ).id;
  }
  const offer = (show: string) => get<{ status: string; reject_reason: string | null }>(request, `/networks/${n}/offers/${offers[show]}`);
  const checkbox = (show: string) => page.getByRole('table', { name: 'Offers' }).getByRole('checkbox', { name: `Select Spring sale on ${show}` });

  await signInToConsole(page, { next: `/console/n/${n}/offers` });
  for (const show of ['Night Owls', 'Morning Larks', 'Late Shift']) await checkbox(show).click();
  await expect(bar(page, 'Offers')).toContainText('3 selected');
  await screenshot(page, testInfo, 'console-bulk-offers-selected-1280');

  // Meanwhile someone rejects "Late Shift" through the API: accepting it is a 409 on its row.
  await post(request, `/networks/${n}/offers/${offers['Late Shift']}/reject`, { reason: 'decided elsewhere' });

  await bar(page, 'Offers').getByRole('button', { name: 'Accept' }).click();
  await page.getByRole('alertdialog', { name: 'Accept 3 offers?' }).getByRole('button', { name: 'Accept 3 offers' }).click();
  let results = page.getByRole('dialog', { name: 'Accept offers' });
  await expect(results.getByTestId('bulk-summary')).toHaveText('2 accepted, 1 failed.');
  await expect(result(results, 'Night Owls')).toContainText('Accepted');
  await expect(result(results, 'Morning Larks')).toContainText('Accepted');
  await expect(result(results, 'Late Shift')).toContainText('The offer is no longer open (it is rejected).');
  await results.getByRole('button', { name: 'Done' }).click();
  expect((await offer('Night Owls')).status).toBe('accepted');
  expect((await offer('Morning Larks')).status).toBe('accepted');
  expect((await offer('Late Shift')).reject_reason).toBe('decided elsewhere');
  // The list was refreshed: decided offers have no checkbox.
  await expect(checkbox('Night Owls')).toHaveCount(0);
  await expect(checkbox('Late Shift')).toHaveCount(0);

  // Reject two with one reason.
  await checkbox('Day Trippers').click();
  await checkbox('Long Haul').click();
  await bar(page, 'Offers').getByRole('button', { name: 'Reject' }).click();
  const reject = page.getByRole('dialog', { name: 'Reject 2 offers?' });
  await reject.getByLabel('Reason (optional, for all of them)').fill('Not a fit for these shows');
  await reject.getByRole('button', { name: 'Reject 2 offers' }).click();
  results = page.getByRole('dialog', { name: 'Reject offers' });
  await expect(results.getByTestId('bulk-summary')).toHaveText('2 rejected.');
  await expect(results.getByRole('button', { name: /Retry failed/ })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, testInfo, 'bulk-offers-results');
  await screenshot(page, testInfo, 'console-bulk-offers-results-1280');
  await results.getByRole('button', { name: 'Done' }).click();
  for (const show of ['Day Trippers', 'Long Haul'])
    expect(await offer(show)).toMatchObject({ status: 'rejected', reject_reason: 'Not a fit for these shows' });
  expect((await offer('Quiet Hour')).status).toBe('open');

  // The bar and the checkboxes at 1024 and 390 px: the cards keep a checkbox each and "Select all".
  for (const width of [1024, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 768 });
    await checkbox('Quiet Hour').click();
    await expect(bar(page, 'Offers')).toContainText('1 selected');
    await expect(page.getByRole('table', { name: 'Offers' }).getByRole('checkbox', { name: 'Select all loaded rows' })).toBeVisible();
    await expectInsideWindow(page, page.locator('main [role="checkbox"], main [role="region"] button'));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await expectNoSeriousA11yViolations(page, testInfo, `bulk-offers-selected-${width}`);
    await screenshot(page, testInfo, `console-bulk-offers-selected-${width}`);
    await bar(page, 'Offers').getByRole('button', { name: 'Clear' }).click();
    await expect(bar(page, 'Offers')).toHaveCount(0);
  }
});

/** A receiver that answers 500 while told to, 200 otherwise, and records every delivery id it got. */
async function startReceiver() {
  const state = { fail: true, received: [] as Array<{ deliveryId: string; status: number }> };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const status = state.fail ? 500 : 200;
      state.received.push({ deliveryId: String(req.headers['x-service-delivery']), status });
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: !state.fail }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { state, url: `http://127.0.0.1:${port}/hooks`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

test('deliveries: redeliver several failed ones; a network error is reported per row and retried; new attempts are recorded', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(150_000);
  const receiver = await startReceiver();
  try {
    const network = await createNetwork(request, `Bulk hooks ${randomUUID().slice(0, 8)}`);
    const n = network.id;
    const webhook = await post<{ id: string }>(request, `/networks/${n}/webhooks`, { url: receiver.url, events: ['optin.completed'] });
    for (const show of ['Night Owls', 'Morning Larks', 'Day Trippers']) {
      const podcast = await post<{ id: string }>(request, `/networks/${n}/podcasts`, { name: show, host_name: 'Sam Host' });
      await post(request, `/networks/${n}/podcasts/${podcast.id}/opt-in`);
    }
    type Delivery = { id: string; status: string; attempt_count: number };
    const deliveries = () => get<{ items: Delivery[] }>(request, `/networks/${n}/webhooks/${webhook.id}/deliveries?limit=50`).then((d) => d.items);
    // Each fails after its retries (WEBHOOK_RETRY_SCHEDULE=0,1,1: four attempts).
    await expect.poll(async () => (await deliveries()).filter((d) => d.status === 'failed').length, { timeout: 45_000 }).toBe(3);
    const failed = await deliveries();
    const attemptsBefore = new Map(failed.map((d) => [d.id, d.attempt_count]));
    receiver.state.fail = false;

    await signInToConsole(page, { next: `/console/n/${n}/webhooks/${webhook.id}` });
    const table = page.getByRole('table', { name: 'Deliveries' });
    const checkbox = (d: Delivery) => table.getByRole('checkbox', { name: `Select optin.completed · ${d.id.slice(0, 8)}…` });
    for (const d of failed) await checkbox(d).click();
    await expect(bar(page, 'Deliveries')).toContainText('3 selected');

    // The first call to redeliver never reaches the server: each of its rows says so.
    await page.route(
      (url) => url.pathname.includes('webhooks.redeliver'),
      (route) => route.abort('internetdisconnected'),
      { times: 1 },
    );
    await bar(page, 'Deliveries').getByRole('button', { name: 'Redeliver' }).click();
    await page.getByRole('alertdialog', { name: 'Redeliver 3 deliveries?' }).getByRole('button', { name: 'Redeliver 3 deliveries' }).click();
    const results = page.getByRole('dialog', { name: 'Redeliver deliveries' });
    await expect(results.getByTestId('bulk-summary')).toHaveText(/^\d scheduled, \d failed\.$/);
    const firstRun = (await results.getByTestId('bulk-summary').textContent())!;
    const failedRows = Number(/(\d) failed/.exec(firstRun)![1]);
    expect(failedRows).toBeGreaterThanOrEqual(1);
    await expect(
      results.getByRole('listitem').filter({ hasText: 'The console could not reach the API. Check your connection and retry.' }),
    ).toHaveCount(failedRows);
    await screenshot(page, testInfo, 'console-bulk-deliveries-failed-1280');

    await results.getByRole('button', { name: `Retry failed (${failedRows})` }).click();
    await expect(results.getByTestId('bulk-summary')).toHaveText('3 scheduled.');
    for (const d of failed) await expect(result(results, d.id.slice(0, 8))).toContainText('Scheduled');
    await results.getByRole('button', { name: 'Done' }).click();

    // New attempts are recorded, and the receiver got each delivery again (now answering 200).
    await expect
      .poll(async () => (await deliveries()).every((d) => d.status === 'succeeded' && d.attempt_count === attemptsBefore.get(d.id)! + 1), {
        timeout: 30_000,
      })
      .toBe(true);
    for (const d of failed) expect(receiver.state.received.filter((r) => r.deliveryId === d.id && r.status === 200)).toHaveLength(1);
    await expect(table.getByRole('row').filter({ hasText: 'succeeded' })).toHaveCount(3);

    // 390 px: the cards keep their checkboxes, the bar fits.
    await page.setViewportSize({ width: 390, height: 844 });
    await checkbox(failed[0]!).click();
    await expect(bar(page, 'Deliveries')).toContainText('1 selected');
    await expectInsideWindow(page, page.locator('main [role="checkbox"], main [role="region"] button'));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectNoSeriousA11yViolations(page, testInfo, 'bulk-deliveries-selected-390');
    await screenshot(page, testInfo, 'console-bulk-deliveries-selected-390');
  } finally {
    await receiver.close();
  }
});
