import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createNetwork, e2eToken, expectNoSeriousA11yViolations, screenshot, signInToConsole } from './console-helpers';

/**
 * A real webhook receiver on 127.0.0.1: verifies X-Service-Signature (HMAC-SHA256
 * over the raw body bytes, keyed by the secret copied from the console) and
 * answers 200, or 500 while told to fail. A bad signature answers 401.
 */
async function startReceiver() {
  const state = {
    secret: '',
    fail: false,
    requests: [] as Array<{ deliveryId: string; event: string; verified: boolean; status: number }>,
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const header = String(req.headers['x-service-signature'] ?? '');
      const expected = createHmac('sha256', state.secret).update(raw).digest();
      const verified =
        state.secret !== '' &&
        header.split(',').some((sig) => {
          const given = Buffer.from(sig.trim(), 'hex');
          return given.length === expected.length && timingSafeEqual(given, expected);
        });
      const status = !verified ? 401 : state.fail ? 500 : 200;
      state.requests.push({ deliveryId: String(req.headers['x-service-delivery']), event: String(req.headers['x-service-event']), verified, status });
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(status === 200 ? { received: true } : { error: status === 500 ? 'receiver told to fail' : 'bad signature' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    state,
    url: `http://127.0.0.1:${port}/hooks`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const auth = () => ({ Authorization: `Bearer ${e2eToken()}` });

/** One optin.completed event: a new podcast opts in (through /v1 with the e2e token). */
async function optInPodcast(request: APIRequestContext, networkId: string, name: string): Promise<void> {
  const pod = await request.post(`/v1/networks/${networkId}/podcasts`, { headers: auth(), data: { name, host_name: 'Sam Host' } });
  expect(pod.status()).toBe(201);
  const { id } = await pod.json();
  const opt = await request.post(`/v1/networks/${networkId}/podcasts/${id}/opt-in`, { headers: auth() });
  expect(opt.status()).toBeLessThan(300);
}

function deliveryRow(page: Page, deliveryId: string) {
  return page
    .getByRole('table', { name: 'Deliveries' })
    .getByRole('row')
    .filter({ hasText: `${deliveryId.slice(0, 8)}…` });
}

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test('webhooks: create with a secret shown once, real signed deliveries, failures, redeliver, recover, conflicts, disable, overview', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(240_000);
  const receiver = await startReceiver();
  try {
    const network = await createNetwork(request, `Hooks ${randomUUID().slice(0, 8)}`);
    // Overview with nothing yet: empty states.
    await signInToConsole(page, { next: `/console/n/${network.id}` });
    await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
    await expect(page.getByText('No webhooks yet')).toBeVisible();
    await expect(page.getByText('No events yet')).toBeVisible();

    // Webhooks: empty list, then create one to the receiver.
    await page.goto(`/console/n/${network.id}/webhooks`);
    await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
    await expect(page.getByText('No webhooks yet')).toBeVisible();
    await page.getByRole('button', { name: 'Add webhook' }).first().click();
    const create = page.getByRole('dialog', { name: 'Add webhook' });
    await create.getByRole('button', { name: 'Create webhook' }).click();
    await expect(create.getByText('url must be an http or https URL.')).toBeVisible();
    await create.getByLabel('Endpoint URL').fill(receiver.url);
    await create.getByRole('button', { name: 'Create webhook' }).click();
    await expect(create.getByText('events must name at least one event type.')).toBeVisible();
    await expect(create.getByText('A podcast completes opt-in.')).toBeVisible();
    await create.getByRole('checkbox', { name: 'optin.completed' }).click();
    await create.getByLabel('Description (optional)').fill('e2e receiver');
    await create.getByRole('button', { name: 'Create webhook' }).click();

    const reveal = page.getByRole('dialog', { name: 'Webhook created' });
    await expect(reveal).toBeVisible();
    const secret = await reveal.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await reveal.getByRole('button', { name: 'Copy' }).click();
    await expect(reveal.getByRole('button', { name: 'Copied', exact: true })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    receiver.state.secret = secret;
    await reveal.getByRole('button', { name: 'I have copied it' }).click();
    await expect(page).toHaveURL(/\/webhooks\/whk_/);
    const webhookId = decodeURIComponent(page.url().split('/webhooks/')[1]!);
    await expect(page.getByRole('heading', { level: 1, name: 'Webhook' })).toBeVisible();
    await expect(page.getByText('No deliveries yet')).toBeVisible();
    // The secret is not shown again anywhere.
    await expect(page.getByText(secret)).toHaveCount(0);

    // 1. An event → a verified delivery with 200 in the log.
    await optInPodcast(request, network.id, 'Night Owls');
    await expect.poll(() => receiver.state.requests.filter((r) => r.status === 200).length).toBe(1);
    expect(receiver.state.requests.every((r) => r.verified)).toBe(true);
    const first = receiver.state.requests[0]!;
    expect(first.event).toBe('optin.completed');
    const firstRow = deliveryRow(page, first.deliveryId);
    await expect(firstRow).toContainText('succeeded');
    await expect(firstRow).toContainText('200');
    await expect(firstRow).toContainText('optin.completed');

    // Its detail panel: headers, exact body, the attempt.
    await firstRow.click();
    const panel = page.getByRole('dialog', { name: 'Delivery' });
    await expect(panel.getByText('X-Service-Delivery')).toBeVisible();
    await expect(panel.getByText(first.deliveryId).first()).toBeVisible();
    await expect(panel.getByLabel('Request body')).toContainText('"type": "optin.completed"');
    await expect(panel.getByText('Attempt 1')).toBeVisible();
    await panel.getByRole('button', { name: 'Copy exact body' }).click();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(JSON.parse(copied)).toMatchObject({ id: first.deliveryId, type: 'optin.completed' });
    await expectNoSeriousA11yViolations(page, testInfo, 'webhook-detail-delivery-panel');
    await screenshot(page, testInfo, 'console-webhook-detail-delivery-1280');
    await panel.getByRole('button', { name: 'Close' }).click();
    await expect(panel).toBeHidden();

    // 2. The receiver fails → the delivery retries (0, 1, 1 s) and ends failed with 4 attempts.
    receiver.state.fail = true;
    await optInPodcast(request, network.id, 'Morning Larks');
    await expect.poll(() => receiver.state.requests.filter((r) => r.status === 500).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
    const failing = receiver.state.requests.find((r) => r.status === 500)!;
    const failingRow = deliveryRow(page, failing.deliveryId);
    await expect(failingRow).toContainText('failed', { timeout: 20_000 });
    // By its column's name: the row starts with a checkbox (bulk redeliver) before the event.
    await expect(failingRow.locator('td[data-label="Attempts · code"]')).toHaveText('4 · 500');
    await expect(failingRow).toContainText('500');
    await failingRow.click();
    await expect(panel.getByText('Attempt 4')).toBeVisible();
    await expect(panel.getByText('receiver told to fail').first()).toBeVisible();

    // The receiver recovers → Redeliver → 200.
    receiver.state.fail = false;
    await panel.getByRole('button', { name: 'Redeliver' }).click();
    await expect(panel.getByText('Attempt 5')).toBeVisible({ timeout: 15_000 });
    await expect(panel.getByText('succeeded').first()).toBeVisible();
    await panel.getByRole('button', { name: 'Close' }).click();
    await expect(failingRow).toContainText('succeeded');
    await expect(failingRow).toContainText('200');

    // 3. Another failure, then "Recover failed since…" re-sends it.
    receiver.state.fail = true;
    await optInPodcast(request, network.id, 'Day Trippers');
    await expect
      .poll(() => new Set(receiver.state.requests.filter((r) => r.status === 500).map((r) => r.deliveryId)).size, { timeout: 20_000 })
      .toBe(2);
    const third = receiver.state.requests.filter((r) => r.status === 500).at(-1)!;
    await expect(deliveryRow(page, third.deliveryId)).toContainText('failed', { timeout: 20_000 });
    // Filters: only failed deliveries.
    await page.getByLabel('Status').selectOption('failed');
    await expect(page.getByRole('table', { name: 'Deliveries' }).getByRole('row')).toHaveCount(2); // header + the failed one
    await page.getByRole('button', { name: 'Clear filters' }).click();
    receiver.state.fail = false;
    await expect(page.getByLabel('Recover failed since…')).not.toHaveValue('');
    await page.getByRole('button', { name: 'Recover' }).click();
    await expect(page.getByText('Re-sent 1 failed delivery')).toBeVisible();
    await expect(deliveryRow(page, third.deliveryId)).toContainText('succeeded', { timeout: 15_000 });
    expect(receiver.state.requests.every((r) => r.verified)).toBe(true);

    // 4. Edit with a stale version: someone changes the webhook through the API meanwhile.
    await page.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit webhook' });
    await expect(edit.getByLabel('Endpoint URL')).toHaveValue(receiver.url);
    const current = await (await request.get(`/v1/networks/${network.id}/webhooks/${webhookId}`, { headers: auth() })).json();
    const patched = await request.patch(`/v1/networks/${network.id}/webhooks/${webhookId}`, {
      headers: auth(),
      data: { description: 'changed by a colleague', version: current.version },
    });
    expect(patched.status()).toBe(200);
    await edit.getByLabel('Description (optional)').fill('my change');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect(edit.getByText('Someone else changed this webhook since you opened it — reload to see their change.')).toBeVisible();
    await edit.getByRole('button', { name: 'Reload' }).click();
    await expect(edit.getByLabel('Description (optional)')).toHaveValue('changed by a colleague');
    await edit.getByLabel('Description (optional)').fill('changed by a colleague, then by me');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect(edit).toBeHidden();
    await expect(page.getByText('changed by a colleague, then by me')).toBeVisible();

    // 5. Disable: deliveries pause.
    await page.getByRole('button', { name: 'Disable' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Disable this webhook?' });
    await expect(confirm.getByText(/Deliveries pause while it is disabled/)).toBeVisible();
    await confirm.getByRole('button', { name: 'Disable webhook' }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByText(/Paused: nothing is sent/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Enable' })).toBeVisible();
    await expectNoSeriousA11yViolations(page, testInfo, 'webhook-detail');

    // The list shows it disabled.
    await page.goto(`/console/n/${network.id}/webhooks`);
    const listRow = page.getByRole('table', { name: 'Webhooks' }).getByRole('row').filter({ hasText: receiver.url });
    await expect(listRow).toContainText('disabled');
    await expect(listRow).toContainText('optin.completed');
    await expectNoSeriousA11yViolations(page, testInfo, 'webhooks-list');
    await screenshot(page, testInfo, 'console-webhooks-1280');

    // 6. Overview: counts, recent events, the delivery chart with data.
    await page.goto(`/console/n/${network.id}`);
    await expect(page.getByTestId('count-podcasts')).toHaveText('3');
    await expect(page.getByTestId('count-advertisers')).toHaveText('0');
    const events = page.getByRole('list', { name: 'Recent events' });
    await expect(events.getByRole('listitem')).toHaveCount(3);
    await expect(events.getByRole('listitem').first()).toContainText('“Day Trippers” opted in to ads');
    const chart = page.getByTestId('delivery-chart');
    await expect(chart).toContainText('3 succeeded');
    await expect(chart.locator('.recharts-bar-rectangle').first()).toBeVisible();
    await expect(chart.locator('.recharts-line-curve').first()).toBeAttached();
    await page.getByRole('button', { name: '14 days' }).click();
    await expect(page.getByRole('button', { name: '14 days' })).toHaveAttribute('aria-pressed', 'true');
    await expect(chart).toContainText('14 days: 3 succeeded');
    await expectNoSeriousA11yViolations(page, testInfo, 'overview');
    await screenshot(page, testInfo, 'console-overview-1280');

    // 7. 390 px: the list scrolls, the delivery panel fits.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/console/n/${network.id}/webhooks`);
    await expect(page.getByRole('table', { name: 'Webhooks' }).getByRole('row').filter({ hasText: receiver.url })).toBeVisible();
    await expectNoSeriousA11yViolations(page, testInfo, 'webhooks-list-390');
    await screenshot(page, testInfo, 'console-webhooks-390');
    await page.goto(`/console/n/${network.id}/webhooks/${webhookId}`);
    await expect(deliveryRow(page, first.deliveryId)).toBeVisible();
    // Only the tables scroll sideways, not the page.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectNoSeriousA11yViolations(page, testInfo, 'webhook-detail-390');
    await screenshot(page, testInfo, 'console-webhook-detail-390');
    await deliveryRow(page, first.deliveryId).click();
    await expect(panel.getByText('Attempt 1')).toBeVisible();
    await expectNoSeriousA11yViolations(page, testInfo, 'webhook-delivery-panel-390');
    const box = await panel.boundingBox();
    expect(box!.width).toBeLessThanOrEqual(390);
    await screenshot(page, testInfo, 'console-webhook-delivery-390');
    await page.goto(`/console/n/${network.id}`);
    await expect(page.getByTestId('delivery-chart')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, testInfo, 'console-overview-390');
  } finally {
    await receiver.close();
  }
});

test('a read_only member sees the overview counts and is told webhooks are for administrators', async ({ page, request }) => {
  const network = await createNetwork(request, `Hooks RO ${randomUUID().slice(0, 8)}`);
  const invite = await request.post(`/v1/networks/${network.id}/invitations`, {
    headers: auth(),
    data: { email: `ro-${randomUUID().slice(0, 8)}@example.test`, role: 'read_only' },
  });
  expect(invite.status()).toBe(201);
  const accepted = await request.post('/v1/invitations/accept', { headers: { Authorization: `Bearer ${(await invite.json()).token}` }, data: {} });
  expect(accepted.status()).toBeLessThan(300);
  const token = (await accepted.json()).api_key.token as string;
  await signInToConsole(page, { token, next: `/console/n/${network.id}` });
  await expect(page.getByTestId('count-podcasts')).toHaveText('0');
  await expect(page.getByText('Webhook delivery health is visible to administrators of this network.')).toBeVisible();
  await page.goto(`/console/n/${network.id}/webhooks`);
  await expect(page.getByText('Webhooks are managed by administrators')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add webhook' })).toHaveCount(0);
});
