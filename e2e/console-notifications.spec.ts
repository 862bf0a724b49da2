import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';
import { DEEP, createNetwork, expectNoSeriousA11yViolations, post, screenshot, signInLinkFor, signInToConsole, v1 } from './console-helpers';

/*
 * Notification emails in the console: a person signed in with an emailed link turns a kind off under
 * "Your account" (saved at once, kept over a reload, and the API agrees), then gets a real notice —
 * someone accepts an invitation they sent — and turns that kind off with the email's footer link,
 * which changes nothing until its button is pressed (mail scanners open links).
 */

type Settings = { webhook_disabled: boolean; key_expiring: boolean; creative_failed: boolean; invitation_accepted: boolean };
type Email = { id: string; kind: string; subject: string; text: string | null };

const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 1024, height: 768 },
  { width: 390, height: 844 },
];

/** Nothing on the page scrolls sideways. */
async function expectFits(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `page scrolls sideways at ${width}`).toBeLessThanOrEqual(width);
}

/** The element's own shot under test-results/, beside the whole page's. */
async function shotOf(page: Page, testInfo: TestInfo, name: string, element = page.locator('main')) {
  await element.screenshot({ path: testInfo.outputPath(`${name}-section.png`) });
  await screenshot(page, testInfo, name);
}

/** The newest notice of `kind` mailed to `to`, with its text, from the development mailbox. */
async function noticeFor(request: APIRequestContext, to: string, kind: string): Promise<Email> {
  let found: Email | undefined;
  await expect
    .poll(
      async () => {
        const list = await v1<{ items: Email[] }>(request, 'GET', `/emails?to=${encodeURIComponent(to)}`);
        const notice = list.items.find((e) => e.kind === kind);
        if (!notice) return false;
        found = await v1<Email>(request, 'GET', `/emails/${notice.id}`);
        return found.text !== null;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  return found!;
}

test('a person turns a kind of email off under Your account, and another with the link of a real notice', async ({ page, request }, testInfo) => {
  test.setTimeout(180_000);
  const suffix = randomUUID().slice(0, 8);
  const name = 'Noor Haddad';
  const email = `noor-${suffix}@example.com`;
  const network = await createNetwork(request, `Notices ${suffix}`);
  const invited = await post<{ token: string }>(request, `/networks/${network.id}/invitations`, { email, role: 'administrator' });
  const firstKey = (await post<{ api_key: { token: string } }>(request, '/invitations/accept', { name }, invited.token)).api_key.token;

  // --- Signed in with an emailed link: a session ------------------------------------------------
  await page.goto('/console/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Email me a link' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Check your inbox' })).toBeVisible();
  await page.goto((await signInLinkFor(request, email)).replace(/^https?:\/\/[^/]+/, ''));
  await expect(page).toHaveURL(new RegExp(`/console/n/${network.id}`));
  const sessionKey = (await page.evaluate(() => sessionStorage.getItem('ans.console.apiKey')))!;
  expect(sessionKey).toMatch(/^sk_test_/);

  // --- "Your account": every kind on, each with its description ---------------------------------
  await page.getByRole('link', { name: 'Your account' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Your account' })).toBeVisible();
  const section = page.getByRole('region', { name: 'Email notifications' });
  const creativeFailed = section.getByRole('switch', { name: 'Creative failed' });
  const invitationAccepted = section.getByRole('switch', { name: 'Invitation accepted' });
  await expect(section.getByRole('switch')).toHaveCount(4);
  for (const kind of ['Webhook disabled', 'API key expiring', 'Creative failed', 'Invitation accepted']) {
    await expect(section.getByRole('switch', { name: kind })).toBeChecked();
  }
  await expect(creativeFailed).toHaveAccessibleDescription('A creative of a network you administer failed to synthesize.');
  await expect(invitationAccepted).toHaveAccessibleDescription('Someone accepted an invitation you sent.');

  // --- One kind off: saved at once, kept over a reload, and the API agrees -----------------------
  await creativeFailed.click();
  await expect(creativeFailed).not.toBeChecked();
  await expect(section.getByRole('status')).toHaveText('Saved. Changes apply to the next email.');
  await expect
    .poll(async () => v1<Settings>(request, 'GET', '/me/notifications', undefined, sessionKey))
    .toEqual({ webhook_disabled: true, key_expiring: true, creative_failed: false, invitation_accepted: true });
  await page.reload();
  await expect(creativeFailed).not.toBeChecked();
  await expect(invitationAccepted).toBeChecked();

  // --- A change the API never gets: put back, with a toast ---------------------------------------
  await page.route('**/api/trpc/notifications.updateSettings**', (route) => route.abort());
  await section.getByRole('switch', { name: 'Webhook disabled' }).click();
  await expect(page.getByText('Could not change your notification emails: The console could not reach the API.')).toBeVisible();
  await expect(section.getByRole('switch', { name: 'Webhook disabled' })).toBeChecked();
  await page.unroute('**/api/trpc/notifications.updateSettings**');
  expect((await v1<Settings>(request, 'GET', '/me/notifications', undefined, sessionKey)).webhook_disabled).toBe(true);
  await page.reload();
  await expect(section.getByRole('switch', { name: 'Webhook disabled' })).toBeChecked();

  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await expect(creativeFailed).toBeVisible();
    await expectFits(page, size.width);
    if (DEEP || size.width !== 1024) await expectNoSeriousA11yViolations(page, testInfo, `account-notifications-${size.width}`);
    await shotOf(page, testInfo, `account-notifications-${size.width}`, section);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoSeriousA11yViolations(page, testInfo, 'account-notifications-dark');
  await shotOf(page, testInfo, 'account-notifications-dark-1280', section);
  await page.emulateMedia({ colorScheme: 'light' });

  // --- A real notice: Noor invites someone with her session, who accepts -------------------------
  const guest = `guest-${suffix}@example.com`;
  const invitation = await post<{ token: string }>(request, `/networks/${network.id}/invitations`, { email: guest, role: 'read_only' }, sessionKey);
  await post(request, '/invitations/accept', { name: 'Sam Guest' }, invitation.token);
  const notice = await noticeFor(request, email, 'invitation_accepted');
  expect(notice.subject).toBe(`${guest} joined Notices ${suffix}`);
  const link = notice.text!.match(/https?:\/\/\S+\/console\/notifications\/unsubscribe#token=[\w.-]+/)?.[0];
  expect(link, notice.text!).toBeDefined();

  // --- The footer link, opened in a tab of its own as a mail client would: nothing changes yet ---
  const mail = await page.context().newPage();
  const calls: string[] = [];
  mail.on('request', (r) => {
    if (r.url().includes('/api/trpc') || r.url().includes('/v1/')) calls.push(r.url());
  });
  await mail.goto(link!.replace(/^https?:\/\/[^/]+/, ''));
  await expect(mail.getByRole('heading', { level: 1, name: 'Turn off emails' })).toBeVisible();
  await expect(mail.getByTestId('unsubscribe-kind')).toHaveText('Stop emails about: Someone accepted an invitation you sent.');
  const button = mail.getByRole('button', { name: 'Turn these emails off' });
  await expect(button).toBeEnabled();
  for (const size of WIDTHS) {
    await mail.setViewportSize(size);
    await expectFits(mail, size.width);
    if (DEEP || size.width !== 1024) await expectNoSeriousA11yViolations(mail, testInfo, `unsubscribe-${size.width}`);
    await shotOf(mail, testInfo, `unsubscribe-${size.width}`);
  }
  await mail.setViewportSize({ width: 1280, height: 800 });
  expect(calls, 'API calls before the button was pressed').toEqual([]);
  expect((await v1<Settings>(request, 'GET', '/me/notifications', undefined, sessionKey)).invitation_accepted).toBe(true);

  // --- Pressed: off, and the page says how to turn it on again -----------------------------------
  await button.click();
  await expect(mail.getByRole('heading', { level: 1, name: 'Emails turned off' })).toBeFocused();
  await expect(mail.getByRole('status')).toHaveText('Done: you will not get these emails. Turn them on again under Your account in the console.');
  await expect(mail.getByRole('link', { name: 'Open the console' })).toHaveAttribute('href', '/console');
  await expect(button).toHaveCount(0);
  expect(calls).toHaveLength(1);
  expect(await v1<Settings>(request, 'GET', '/me/notifications', undefined, sessionKey)).toEqual({
    webhook_disabled: true,
    key_expiring: true,
    creative_failed: false,
    invitation_accepted: false,
  });
  await expectNoSeriousA11yViolations(mail, testInfo, 'unsubscribe-done');
  await shotOf(mail, testInfo, 'unsubscribe-done-1280');
  await mail.setViewportSize({ width: 390, height: 844 });
  await shotOf(mail, testInfo, 'unsubscribe-done-390');
  await mail.close();

  // --- Your account shows it off; turned on again there --------------------------------------------
  await page.reload();
  await expect(invitationAccepted).not.toBeChecked();
  await expect(creativeFailed).not.toBeChecked();
  await invitationAccepted.click();
  await expect(section.getByRole('status')).toHaveText('Saved. Changes apply to the next email.');
  expect((await v1<Settings>(request, 'GET', '/me/notifications', undefined, sessionKey)).invitation_accepted).toBe(true);

  // --- The invitation's first key proves nothing since the email sign-in: the section says how ----
  const other = await page.context().newPage();
  await signInToConsole(other, { token: firstKey, next: `/console/n/${network.id}/account` });
  const refused = other.getByRole('region', { name: 'Email notifications' });
  await expect(refused).toContainText('Notification emails are chosen from a signed-in session');
  await expect(refused).toContainText('sign in with a link emailed to you or with a passkey');
  await expect(refused.getByRole('switch')).toHaveCount(0);
  await expect(other.getByRole('main').getByRole('alert')).toHaveCount(0);
  await expectNoSeriousA11yViolations(other, testInfo, 'account-notifications-refused');
  await shotOf(other, testInfo, 'account-notifications-refused-1280', refused);
  await other.setViewportSize({ width: 390, height: 844 });
  await expectFits(other, 390);
  await shotOf(other, testInfo, 'account-notifications-refused-390', refused);
});

test('an unsubscribe link that is incomplete or not this service’s changes nothing, and says so', async ({ page }, testInfo) => {
  const calls: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/trpc') || r.url().includes('/v1/')) calls.push(r.url());
  });

  // No token, a cut one, or a kind the service does not send: no button, no call.
  for (const hash of ['', '#token=usr_abc.invitation_accepted', `#token=usr_abc.newsletter.${'a'.repeat(43)}`]) {
    await page.goto(`/console/notifications/unsubscribe${hash}`);
    await expect(page.getByRole('heading', { level: 1, name: 'This link is incomplete' })).toBeVisible();
    await expect(page.getByRole('main').getByRole('alert')).toContainText('This unsubscribe link is incomplete. Open the whole link from the email');
    await expect(page.getByRole('button')).toHaveCount(0);
  }
  expect(calls).toEqual([]);
  await expectNoSeriousA11yViolations(page, testInfo, 'unsubscribe-incomplete');
  await screenshot(page, testInfo, 'unsubscribe-incomplete-1280');

  // The right shape, a signature the service did not make: 401, said in words.
  await page.goto(`/console/notifications/unsubscribe#token=usr_abc.invitation_accepted.${'a'.repeat(43)}`);
  await expect(page.getByTestId('unsubscribe-kind')).toHaveText('Stop emails about: Someone accepted an invitation you sent.');
  await page.getByRole('button', { name: 'Turn these emails off' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'This link is not valid' })).toBeFocused();
  await expect(page.getByRole('main').getByRole('alert')).toContainText('This unsubscribe link is not valid: nothing was changed.');
  await expect(page.getByRole('link', { name: 'Open the console' })).toHaveAttribute('href', '/console');
  await expectNoSeriousA11yViolations(page, testInfo, 'unsubscribe-invalid');
  await screenshot(page, testInfo, 'unsubscribe-invalid-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, testInfo, 'unsubscribe-invalid-390');
});

test('Ctrl-K offers Your account, also by what is on it', async ({ page, request }) => {
  const network = await createNetwork(request, `Palette account ${randomUUID().slice(0, 8)}`);
  await signInToConsole(page, { next: `/console/n/${network.id}/offers` });
  await expect(page.getByRole('heading', { name: 'Offers' })).toBeVisible();
  const palette = page.getByRole('dialog', { name: 'Search the console' });
  await page.keyboard.press('Control+k');
  await palette.getByRole('combobox').fill('notifications');
  await palette.getByRole('option', { name: 'Your account' }).click();
  await expect(page).toHaveURL(new RegExp(`/console/n/${network.id}/account$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Your account' })).toBeVisible();
});
