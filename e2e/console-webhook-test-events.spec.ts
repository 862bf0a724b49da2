import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import postgres from 'postgres';
import { createNetwork, e2eToken, expectNoSeriousA11yViolations, signInToConsole } from './console-helpers';
import { databaseUrl } from './database';

const auth = () => ({ Authorization: `Bearer ${e2eToken()}` });

/** An endpoint on 127.0.0.1 that answers 200 and keeps what it got (signatures are checked in tests/http). */
async function startRecordingEndpoint() {
  const got: Array<{ headers: Record<string, string | string[] | undefined>; body: string }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      got.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    got,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test('webhooks: auto-disable shows its reason; "Send test event" reaches a disabled endpoint; the list shows health', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const endpoint = await startRecordingEndpoint();
  const sql = postgres(databaseUrl(process.env.E2E_DATABASE!), { max: 1, onnotice: () => {} });
  try {
    const network = await createNetwork(request, `Test events ${randomUUID().slice(0, 8)}`);
    const created = await request.post(`/v1/networks/${network.id}/webhooks`, {
      headers: auth(),
      data: { url: endpoint.url, events: ['offer.accepted'] },
    });
    expect(created.status()).toBe(201);
    const hook = (await created.json()) as { id: string };

    // Five days of nothing but failures (a delivery that failed six days ago), then the hourly job runs.
    await sql`insert into webhook_deliveries (id, webhook_id, network_id, event_type, test, body, status, attempt_count, created_at)
              values (${randomUUID()}, ${hook.id}, ${network.id}, 'offer.accepted', true, '{}', 'failed', 8, now() - interval '6 days')`;
    await sql`select graphile_worker.add_job('auto-disable-webhooks', '{}'::json)`;
    await expect
      .poll(
        async () =>
          ((await (await request.get(`/v1/networks/${network.id}/webhooks/${hook.id}`, { headers: auth() })).json()) as { status: string }).status,
      )
      .toBe('disabled');

    await signInToConsole(page, { next: `/console/n/${network.id}/webhooks/${hook.id}` });
    await expect(page.getByText(/Disabled automatically: Every delivery failed for 5 days/)).toBeVisible();

    // A test event goes out although the webhook is disabled, and is logged as one.
    await page.getByRole('button', { name: 'Send test event' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send a test event' });
    await dialog.getByLabel('Event type').selectOption('creative.ready');
    await expect(
      dialog.getByText("A host-voiced creative has finished generating: its audio awaits the host's approval (pending_approval)."),
    ).toBeVisible();
    await expectNoSeriousA11yViolations(page, testInfo, 'webhook-send-test-event');
    await dialog.getByRole('button', { name: 'Send test event' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(/Test event sent: delivery/)).toBeVisible();
    await expect.poll(() => endpoint.got.length).toBe(1);
    const [received] = endpoint.got;
    expect(received!.headers['x-service-test']).toBe('true');
    expect(received!.headers['x-service-event']).toBe('creative.ready');
    const envelope = JSON.parse(received!.body) as { id: string; test: boolean };
    expect(envelope.test).toBe(true);
    const row = page
      .getByRole('table', { name: 'Deliveries' })
      .getByRole('row')
      .filter({ hasText: `${envelope.id.slice(0, 8)}…` });
    await expect(row).toContainText('creative.ready');
    await expect(row).toContainText('test');
    await expect(row).toContainText('succeeded');
    await expect(page.getByText(/Paused: nothing is sent/)).toBeVisible();

    // The list: latest outcome and the 24 h success rate.
    await page.goto(`/console/n/${network.id}/webhooks`);
    const listRow = page.getByRole('table', { name: 'Webhooks' }).getByRole('row').filter({ hasText: endpoint.url });
    await expect(listRow).toContainText('succeeded');
    await expect(listRow).toContainText('200');
    await expect(listRow.getByTestId('success-rate-24h')).toHaveText('100 %');
    await expect(listRow).toContainText('Every delivery failed for 5 days');
    await expectNoSeriousA11yViolations(page, testInfo, 'webhooks-list-health');
  } finally {
    await sql.end({ timeout: 5 });
    await endpoint.close();
  }
});
