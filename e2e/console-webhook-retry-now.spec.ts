import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { createNetwork, e2eToken, signInToConsole } from './console-helpers';

/**
 * "Retry now" in the console: a delivery whose receiver asked for a retry in an hour is sent at
 * once from its detail panel. The receiver (real, on 127.0.0.1) answers 503 with Retry-After: 3600
 * the first time and 200 afterwards.
 */
test('webhooks: Retry now sends a delivery waiting for its next attempt at once', async ({ page, request }) => {
  test.setTimeout(120_000);
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests.push(String(req.headers['x-service-delivery']));
      if (requests.length === 1) res.writeHead(503, { 'Retry-After': '3600' }).end('later');
      else res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const headers = { Authorization: `Bearer ${e2eToken()}` };
    const network = await createNetwork(request, `Retry now ${randomUUID().slice(0, 8)}`);
    const hook = await request.post(`/v1/networks/${network.id}/webhooks`, {
      headers,
      data: { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, events: ['optin.completed'] },
    });
    expect(hook.status()).toBe(201);
    const hookId = (await hook.json()).id as string;
    const pod = await request.post(`/v1/networks/${network.id}/podcasts`, { headers, data: { name: 'Late Show', host_name: 'Sam Host' } });
    expect((await request.post(`/v1/networks/${network.id}/podcasts/${(await pod.json()).id}/opt-in`, { headers })).status()).toBeLessThan(300);
    await expect.poll(() => requests.length, { timeout: 20_000 }).toBe(1);

    await signInToConsole(page, { next: `/console/n/${network.id}/webhooks/${hookId}` });
    const row = page
      .getByRole('table', { name: 'Deliveries' })
      .getByRole('row')
      .filter({ hasText: `${requests[0]!.slice(0, 8)}…` });
    await expect(row).toContainText('pending', { timeout: 20_000 });
    await row.click();
    const panel = page.getByRole('dialog', { name: 'Delivery' });
    await expect(panel.getByText('Attempt 1')).toBeVisible();
    await expect(panel.getByText('Sends the next attempt now')).toBeVisible();
    await panel.getByRole('button', { name: 'Retry now' }).click();
    await expect(panel.getByText('Attempt 2')).toBeVisible({ timeout: 15_000 });
    await expect(panel.getByText('succeeded').first()).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Redeliver' })).toBeVisible();
    expect(requests).toEqual([requests[0], requests[0]]);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
