import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { createNetwork, expectNoSeriousA11yViolations, screenshot, signInToConsole } from './console-helpers';

/*
 * The development mailbox (issue 36): the e2e service has no SMTP_URL, so an invitation's email stays
 * in the outbox. An operator finds it from the side navigation, reads it, and its link opens the
 * invitation it carries.
 */
test('an invitation email lands in the outbox, readable, its link opening the invitation', async ({ page, request }, testInfo) => {
  test.setTimeout(120_000);
  const suffix = randomUUID().slice(0, 8);
  const network = await createNetwork(request, `Outbox ${suffix}`);
  const invitee = `guest-${suffix}@example.com`;
  await signInToConsole(page, { next: `/console/n/${network.id}/members` });
  await page.getByRole('button', { name: 'Invite member' }).click();
  const form = page.getByRole('dialog', { name: 'Invite a member' });
  await form.getByLabel('Email').fill(invitee);
  await form.getByRole('button', { name: 'Create invitation' }).click();
  const reveal = page.getByRole('dialog', { name: 'Invitation sent' });
  const shown = await reveal.getByLabel('Invitation link').inputValue();
  await reveal.getByRole('button', { name: 'I have copied it' }).click();

  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Outbox' }).click();
  await expect(page).toHaveURL(/\/console\/outbox$/);
  await page.getByLabel('To').fill(invitee);
  const row = page.getByRole('table', { name: 'Outbox' }).getByRole('row').filter({ hasText: invitee });
  await expect(row).toContainText('sent', { timeout: 30_000 });
  await expect(row).toContainText(`invited you to Outbox ${suffix}`);

  for (const width of [1280, 1024, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await screenshot(page, testInfo, `outbox-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  const sheet = page.getByRole('dialog', { name: 'Email' });
  // The list refetches while it shows mail being sent: a click that lands as the row re-renders is
  // lost (once in a full run), so click until the sheet opens.
  await expect(async () => {
    await row.click();
    await expect(sheet).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
  await expect(sheet).toContainText('(development mailbox)');
  await expect(sheet).toContainText(`invited you to join the network Outbox ${suffix}`);
  await expect(page).toHaveURL(/[?&]email=eml_[0-9a-z]{26}/);
  await expectNoSeriousA11yViolations(page, testInfo, 'outbox email');
  await screenshot(page, testInfo, 'outbox-email-1280');
  // The HTML part, on request, rendered in a sandbox: its button is the accept link too.
  await sheet.getByText('As it looks in a mail client (HTML)').click();
  const html = sheet.frameLocator('iframe[title="The email\'s HTML part"]');
  await expect(html.getByRole('link', { name: 'Accept the invitation' })).toHaveAttribute('href', /#token=inv_/);

  // The emailed link is the one the console showed once, and it opens the invitation.
  const link = sheet.getByRole('link', { name: /\/console\/invitations\/accept#token=inv_/ });
  // (PUBLIC_URL's host, localhost here, where the console ran on 127.0.0.1: the token is the same.)
  expect(new URL((await link.getAttribute('href'))!).hash).toBe(new URL(shown).hash);
  await link.click();
  await expect(page.getByText(`Outbox ${suffix}`)).toBeVisible();
});
