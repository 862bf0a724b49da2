import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { createNetwork, post, signInToConsole, startOkReceiver, v1 } from './console-helpers';

/*
 * Export CSV on the lists that are not ListPages (issue 35, item 5): API keys, members,
 * invitations, service accounts, webhooks and a webhook's deliveries. Each downloads the same
 * `/v1` list the table shows, with the page's filters, under the signed-in key.
 */

/** Clicks the export button named `name` and returns the file's lines (CRLF, as the server writes them). */
async function exportLines(page: Page, name = 'Export CSV'): Promise<string[]> {
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name, exact: true }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  return readFileSync((await download.path())!, 'utf8')
    .trim()
    .split('\r\n');
}

test('every list without a ListPage exports what it shows, with its filters', async ({ page, request }) => {
  test.setTimeout(120_000);
  const suffix = randomUUID().slice(0, 8);
  const { id: n } = await createNetwork(request, `Exports ${suffix}`);
  type Created = { id: string; name: string; api_key: { id: string } };
  const nightly = await post<Created>(request, `/networks/${n}/service-accounts`, { name: `Nightly ${suffix}`, role: 'read_only' });
  const billing = await post<Created>(request, `/networks/${n}/service-accounts`, { name: `Billing ${suffix}`, role: 'read_only' });
  await v1(request, 'DELETE', `/networks/${n}/apikeys/${nightly.api_key.id}`);
  const invited = `export-${suffix}@example.test`;
  await post(request, `/networks/${n}/invitations`, { email: invited, role: 'read_only' });
  const receiver = await startOkReceiver();
  try {
    const webhook = await post<{ id: string }>(request, `/networks/${n}/webhooks`, {
      url: receiver.url,
      events: ['creative.ready', 'offer.accepted'],
    });
    await post(request, `/networks/${n}/webhooks/${webhook.id}/test`, { event_type: 'creative.ready' });
    await post(request, `/networks/${n}/webhooks/${webhook.id}/test`, { event_type: 'offer.accepted' });
    // API keys, filtered in the URL to revoked ones: the table and the file hold the revoked key only.
    await signInToConsole(page, { next: `/console/n/${n}/api-keys?status=revoked` });
    const keys = page.getByRole('table', { name: 'API keys' });
    await expect(keys.getByRole('row')).toHaveCount(2); // the header and the revoked key
    let lines = await exportLines(page);
    expect(lines[0]).toContain('id,key_name');
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual([nightly.api_key.id]);
    // By owner instead: Billing's key, active.
    await page.getByLabel('Status').selectOption('');
    await page.getByLabel('Owner').selectOption({ label: `Billing ${suffix}` });
    await expect(keys.getByRole('row')).toHaveCount(2);
    lines = await exportLines(page);
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual([billing.api_key.id]);

    // Service accounts: both.
    await page.goto(`/console/n/${n}/service-accounts`);
    lines = await exportLines(page);
    expect(
      lines
        .slice(1)
        .map((line) => line.split(',')[0])
        .sort(),
    ).toEqual([nightly.id, billing.id].sort());

    // Members (nobody joined yet: the header only) and pending invitations: the one sent.
    await page.goto(`/console/n/${n}/members`);
    lines = await exportLines(page);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('role');
    lines = await exportLines(page, 'Export invitations CSV');
    expect(lines.slice(1).filter((line) => line.includes(invited))).toHaveLength(1);

    // Webhooks, then one webhook's deliveries filtered by event type.
    await page.goto(`/console/n/${n}/webhooks`);
    lines = await exportLines(page);
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual([webhook.id]);
    await page.goto(`/console/n/${n}/webhooks/${webhook.id}`);
    const deliveries = page.getByRole('table', { name: 'Deliveries' });
    await expect(deliveries.getByRole('row')).toHaveCount(3);
    await page.getByLabel('Event type').selectOption('offer.accepted');
    await expect(deliveries.getByRole('row')).toHaveCount(2);
    lines = await exportLines(page);
    expect(lines.slice(1)).toHaveLength(1);
    expect(lines[1]).toContain('offer.accepted');
  } finally {
    await receiver.close();
  }
});
