import { randomUUID } from 'node:crypto';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { createNetwork, e2eToken, post, startOkReceiver, expectNoSeriousA11yViolations, screenshot, signInToConsole } from './console-helpers';

/*
 * Every object has a URL (issue 35): an offer, a creative, a key, a member and a delivery open in
 * a sheet over their list with their id in the URL (`?offer=off_…`), a webhook on its own page. The
 * URL opens the object from a link, survives a reload, and back and forward close and reopen it.
 */

const auth = () => ({ Authorization: `Bearer ${e2eToken()}` });

/** A cell of the row that is not a link or a button: clicking it opens the row's object. */
const plainCell = (row: Locator) => row.locator('td:not([data-actions])').last();

/**
 * From the list at `listUrl`, a click on `row` opens the sheet named `title` showing `shows`, with
 * `param=id` in the URL; a reload keeps it open; back closes it, forward opens it again; the URL
 * alone opens it from a fresh page.
 */
async function expectObjectUrl(
  page: Page,
  { listUrl, row, param, id, title, shows }: { listUrl: string; row: Locator; param: string; id: string; title: string; shows: string | RegExp },
) {
  await page.goto(listUrl);
  await plainCell(row).click();
  const sheet = page.getByRole('dialog', { name: title });
  await expect(sheet).toContainText(shows);
  await expect(page).toHaveURL(new RegExp(`[?&]${param}=${id}(&|$)`));
  await page.reload();
  await expect(sheet).toContainText(shows);
  // At once, while the page's lists may still be loading (the next test holds one to be sure).
  await page.goBack();
  await expect(sheet).toBeHidden();
  await expect(page).not.toHaveURL(new RegExp(`${param}=`));
  await page.goForward();
  await expect(sheet).toContainText(shows);
  // Closing is a step in history too, and the list is still there behind it.
  await sheet.getByRole('button', { name: 'Close' }).click();
  await expect(sheet).toBeHidden();
  await expect(page).not.toHaveURL(new RegExp(`${param}=`));
  await expect(row).toBeVisible();

  const separator = listUrl.includes('?') ? '&' : '?';
  await page.goto(`${listUrl}${separator}${param}=${id}`);
  await expect(sheet).toContainText(shows);
}

test('offers, creatives, keys, members, deliveries and webhooks each have a URL that opens them', async ({ page, request }, testInfo) => {
  test.setTimeout(180_000);
  const receiver = await startOkReceiver();
  try {
    const suffix = randomUUID().slice(0, 8);
    const { id: n } = await createNetwork(request, `Links ${suffix}`);
    const webhook = await post<{ id: string }>(request, `/networks/${n}/webhooks`, { url: receiver.url, events: ['offer.accepted'] });
    const advertiser = await post<{ id: string }>(request, `/networks/${n}/advertisers`, { name: 'Acme' });
    const campaign = await post<{ id: string }>(request, `/networks/${n}/campaigns`, {
      name: 'Spring sale',
      advertiser_id: advertiser.id,
      script: 'Sleep better tonight with Acme mattresses.',
      status: 'active',
    });
    const podcast = await post<{ id: string }>(request, `/networks/${n}/podcasts`, { name: 'Morning Commute', host_name: 'Sam' });
    await post(request, `/networks/${n}/podcasts/${podcast.id}/opt-in`, {});
    const accepted = await post<{ id: string }>(request, `/networks/${n}/offers`, { campaign_id: campaign.id, podcast_id: podcast.id });
    const { creative_id: creativeId } = await post<{ creative_id: string }>(request, `/networks/${n}/offers/${accepted.id}/accept`, {});
    const open = await post<{ id: string }>(request, `/networks/${n}/offers`, {
      campaign_id: campaign.id,
      podcast_id: podcast.id,
      price_cents: 31_400,
      currency: 'USD',
    });
    const invitation = await post<{ token: string }>(request, `/networks/${n}/invitations`, {
      email: `rae-${suffix}@example.com`,
      role: 'read_only',
    });
    const joined = await post<{ member: { id: string }; api_key: { id: string; key_name: string } }>(
      request,
      '/invitations/accept',
      { name: 'Rae Reader' },
      invitation.token,
    );

    await signInToConsole(page);
    const base = `/console/n/${n}`;

    const offers = page.getByRole('table', { name: 'Offers' });
    await expectObjectUrl(page, {
      listUrl: `${base}/offers`,
      row: offers.getByRole('row').filter({ hasText: '$314.00' }),
      param: 'offer',
      id: open.id,
      title: 'Offer',
      shows: '$314.00',
    });
    // The open offer's sheet has its buttons.
    await expect(page.getByRole('dialog', { name: 'Offer' }).getByRole('button', { name: /^Accept offer of/ })).toBeVisible();
    await expectNoSeriousA11yViolations(page, testInfo, 'offer-sheet');
    await screenshot(page, testInfo, 'console-offer-sheet-1280');

    await expectObjectUrl(page, {
      listUrl: `${base}/creatives`,
      row: page.getByRole('table', { name: 'Creatives' }).getByRole('row').filter({ hasText: 'Morning Commute' }),
      param: 'creative',
      id: creativeId,
      title: 'Creative',
      shows: 'Sleep better tonight with Acme mattresses.',
    });

    await expectObjectUrl(page, {
      listUrl: `${base}/api-keys`,
      row: page.getByRole('table', { name: 'API keys' }).getByRole('row').filter({ hasText: 'Rae Reader' }),
      param: 'key',
      id: joined.api_key.id,
      title: 'API key',
      shows: 'Rae Reader',
    });
    await expect(page.getByRole('dialog', { name: 'API key' }).getByRole('button', { name: /^Revoke/ })).toBeVisible();

    await expectObjectUrl(page, {
      listUrl: `${base}/members`,
      row: page.getByRole('table', { name: 'Members' }).getByRole('row').filter({ hasText: 'Rae Reader' }),
      param: 'member',
      id: joined.member.id,
      title: 'Member',
      shows: `rae-${suffix}@example.com`,
    });

    const deliveries = page.getByRole('table', { name: 'Deliveries' });
    await page.goto(`${base}/webhooks/${webhook.id}`);
    await expect(deliveries.getByRole('row').filter({ hasText: 'offer.accepted' })).toContainText('succeeded', { timeout: 30_000 });
    const listed = await request.get(`/v1/networks/${n}/webhooks/${webhook.id}/deliveries`, { headers: auth() });
    const deliveryId = ((await listed.json()) as { items: Array<{ id: string }> }).items[0]!.id;
    await expectObjectUrl(page, {
      listUrl: `${base}/webhooks/${webhook.id}`,
      row: deliveries.getByRole('row').filter({ hasText: 'offer.accepted' }),
      param: 'delivery',
      id: deliveryId,
      title: 'Delivery',
      shows: 'offer.accepted',
    });

    // A webhook has a page of its own; back returns to the list.
    await page.goto(`${base}/webhooks`);
    await plainCell(page.getByRole('table', { name: 'Webhooks' }).getByRole('row').filter({ hasText: receiver.url })).click();
    await expect(page).toHaveURL(new RegExp(`/webhooks/${webhook.id}$`));
    await page.reload();
    await expect(page.getByRole('table', { name: 'Deliveries' })).toBeVisible();
    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`${base}/webhooks$`));
  } finally {
    await receiver.close();
  }
});

test('back closes an object while the list behind it is still loading', async ({ page, request }) => {
  const suffix = randomUUID().slice(0, 8);
  const { id: n } = await createNetwork(request, `Back ${suffix}`);
  const invitation = await post<{ token: string }>(request, `/networks/${n}/invitations`, { email: `lee-${suffix}@example.com`, role: 'read_only' });
  const joined = await post<{ member: { id: string } }>(request, '/invitations/accept', { name: 'Lee Loader' }, invitation.token);

  await signInToConsole(page, { next: `/console/n/${n}/members` });
  await plainCell(page.getByRole('table', { name: 'Members' }).getByRole('row').filter({ hasText: 'Lee Loader' })).click();
  const sheet = page.getByRole('dialog', { name: 'Member' });
  await expect(sheet).toContainText(`lee-${suffix}@example.com`);

  // The reloaded page's invitations stay loading until released (and whatever the console sends in
  // the same batch: the sheet may be loading too). Back pressed meanwhile renders the loading table
  // inside the popstate, synchronously: it must render once, not loop (data-table.tsx, NO_ROWS).
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname.includes('invitations.list'),
    async (route) => {
      await held;
      await route.continue();
    },
  );
  await page.reload();
  await expect(sheet).toContainText(joined.member.id);
  // Behind the modal sheet the page is hidden from the accessibility tree, hence includeHidden.
  const invitations = page.getByRole('table', { name: 'Invitations', includeHidden: true });
  await expect(invitations).toHaveAttribute('aria-busy', 'true');
  await page.goBack();
  await expect(sheet).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/console/n/${n}/members$`));
  await expect(invitations).toHaveAttribute('aria-busy', 'true');

  release();
  await expect(invitations).not.toHaveAttribute('aria-busy');
  await expect(page.getByText('No pending invitations')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Members' }).getByRole('row').filter({ hasText: 'Lee Loader' })).toBeVisible();
});
