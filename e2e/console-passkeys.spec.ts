import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext, type CDPSession, type Page } from '@playwright/test';
import { createNetwork, expectNoSeriousA11yViolations, post, screenshot, signInLinkFor, signInToConsole, v1 } from './console-helpers';

/*
 * Passkeys in the console: a person signed in with an emailed link adds a passkey under "Your
 * account", signs out, signs in with it, removes it, and then it signs nobody in. The browser's
 * side is Chromium's virtual authenticator (CDP's WebAuthn domain), which answers every prompt at
 * once as if the person had touched it.
 *
 * A passkey belongs to the relying party's host name, PUBLIC_URL's (default
 * `http://localhost:$PORT`, which the e2e service keeps), and browsers refuse passkeys at an IP
 * address: so these pages are opened at http://localhost:<port>, not at the config's baseURL
 * (127.0.0.1), which the last test uses to see the page say where passkeys work.
 */

const ORIGIN = `http://localhost:${process.env.E2E_PORT}`;

/** A virtual authenticator like a laptop's: discoverable credentials, user verification, always touched. */
async function addVirtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

/** A member of a new network, with an email address, who has never signed in. */
async function invitedPerson(request: APIRequestContext, who: string) {
  const suffix = randomUUID().slice(0, 8);
  const email = `${who.toLowerCase().split(' ')[0]}-${suffix}@example.com`;
  const network = await createNetwork(request, `Passkeys ${suffix}`);
  const invited = await post<{ token: string }>(request, `/networks/${network.id}/invitations`, { email, role: 'administrator' });
  await post(request, '/invitations/accept', { name: who }, invited.token);
  return { email, network };
}

/** Nothing on the page scrolls sideways at `width`, and every button of the passkeys' rows is inside the window. */
async function expectFits(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `page scrolls sideways at ${width}`).toBeLessThanOrEqual(width);
  const outside = await page.locator('main table tbody button').evaluateAll((buttons) =>
    buttons
      .map((b) => ({ text: b.textContent, r: b.getBoundingClientRect(), box: b.closest('table')!.parentElement!.getBoundingClientRect() }))
      .filter(({ r, box }) => r.left < Math.max(0, box.left) - 1 || r.right > Math.min(window.innerWidth, box.right) + 1)
      .map(({ text }) => text),
  );
  expect(outside, `row buttons outside the table or window at ${width}`).toEqual([]);
}

test('a person adds a passkey, signs in with it, removes it, and then it signs nobody in', async ({ page, request }, testInfo) => {
  test.setTimeout(180_000);
  const name = 'Noor Haddad';
  const { email, network } = await invitedPerson(request, name);
  const { cdp, authenticatorId } = await addVirtualAuthenticator(page);

  // --- Signed in with an emailed link: a session, which may add passkeys -----------------------
  await page.goto(`${ORIGIN}/console/sign-in`);
  await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeEnabled();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Email me a link' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Check your inbox' })).toBeVisible();
  const link = new URL(await signInLinkFor(request, email));
  await page.goto(`${ORIGIN}${link.pathname}${link.hash}`);
  await expect(page).toHaveURL(new RegExp(`/console/n/${network.id}`));
  await expect(page.getByTestId('signed-in-as')).toContainText(name);

  // --- "Your account", from the foot of the navigation: no passkeys yet -----------------------
  await page.getByRole('link', { name: 'Your account' }).click();
  await expect(page).toHaveURL(`${ORIGIN}/console/n/${network.id}/account`);
  await expect(page.getByRole('heading', { level: 1, name: 'Your account' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Your account' })).toHaveAttribute('aria-current', 'page');
  const signedIn = page.getByRole('region', { name: 'Signed in as' });
  await expect(signedIn).toContainText(name);
  await expect(signedIn).toContainText('A session, until');
  await expect(page.getByText('No passkeys yet')).toBeVisible();
  await expectNoSeriousA11yViolations(page, testInfo, 'account-no-passkeys');

  // --- Add one: named after the browser by default, renamed, made by the authenticator --------
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a passkey' });
  await expect(dialog.getByLabel('Name')).toHaveValue(/^Chrome on /);
  await dialog.getByLabel('Name').fill('   ');
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog).toContainText('name must not be blank.');
  await dialog.getByLabel('Name').fill('Work laptop');
  await expectNoSeriousA11yViolations(page, testInfo, 'account-add-passkey');
  await screenshot(page, testInfo, 'account-add-passkey-1280');
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Passkey “Work laptop” added: it signs you in from now on.')).toBeVisible();
  const passkeys = page.getByRole('table', { name: 'Passkeys' });
  const row = passkeys.getByRole('row').filter({ hasText: 'Work laptop' });
  await expect(row).toContainText('Never');
  await expect(row.locator('time')).toHaveCount(1); // added, in the one date format; not used yet
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]!.isResidentCredential).toBe(true);

  for (const size of [
    { width: 1280, height: 800 },
    { width: 1024, height: 768 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    await expect(row).toBeVisible();
    await expectFits(page, size.width);
    if (size.width !== 1024) await expectNoSeriousA11yViolations(page, testInfo, `account-${size.width}`);
    await screenshot(page, testInfo, `account-${size.width}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  // The dark theme (the system's, nothing chosen) keeps its contrast here too.
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoSeriousA11yViolations(page, testInfo, 'account-dark');
  await screenshot(page, testInfo, 'account-dark-1280');
  await page.emulateMedia({ colorScheme: 'light' });

  // --- Signed out, then in again with the passkey: the same person, a new session --------------
  const firstSession = await page.evaluate(() => sessionStorage.getItem('ans.console.apiKey'));
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/console\/sign-in$/);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page).toHaveURL(new RegExp(`/console/n/${network.id}`));
  const who = page.getByTestId('signed-in-as');
  await expect(who).toContainText(name);
  await expect(who).toContainText('Session until');
  const sessionKey = await page.evaluate(() => sessionStorage.getItem('ans.console.apiKey'));
  expect(sessionKey).toMatch(/^sk_test_/);
  expect(sessionKey).not.toBe(firstSession);
  const me = await v1<{ session: boolean; owner: { name: string } }>(request, 'GET', '/me', undefined, sessionKey!);
  expect(me).toMatchObject({ session: true, owner: { name } });

  // The passkey's last use is now.
  await page.getByRole('link', { name: 'Your account' }).click();
  await expect(row).not.toContainText('Never');
  await expect(row.locator('time')).toHaveCount(2);

  // --- Removed (after confirming): the list is empty, and the API agrees ----------------------
  await row.getByRole('button', { name: 'Remove Work laptop' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Remove “Work laptop”?' });
  await expect(confirm).toContainText('It no longer signs you in');
  await confirm.getByRole('button', { name: 'Remove passkey' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText('No passkeys yet')).toBeVisible();
  expect((await v1<{ items: unknown[] }>(request, 'GET', '/me/passkeys', undefined, sessionKey!)).items).toEqual([]);

  // --- The device still holds it, but it signs nobody in, and the page says so -----------------
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/console\/sign-in$/);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  const refused = page.getByRole('main').getByRole('alert');
  await expect(refused).toContainText('This passkey is not registered here: it may have been removed from your account.');
  await expect(page).toHaveURL(/\/console\/sign-in$/);
  expect(await page.evaluate(() => sessionStorage.getItem('ans.console.apiKey'))).toBeNull();
  await expectNoSeriousA11yViolations(page, testInfo, 'sign-in-passkey-refused');
  await screenshot(page, testInfo, 'sign-in-passkey-refused-1280');

  // --- No passkey on the device: the prompt ends without one, which is no error wall -----------
  await cdp.send('WebAuthn.clearCredentials', { authenticatorId });
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('main').getByRole('status').filter({ hasText: 'No passkey was used' })).toBeVisible();
  await expect(page.getByRole('main').getByRole('alert')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeEnabled();
});

test('the sign-in page offers a passkey between the emailed link and the API key, and says where passkeys work', async ({ page }, testInfo) => {
  await addVirtualAuthenticator(page);
  await page.goto(`${ORIGIN}/console/sign-in`);
  const ways = page.getByRole('button', { name: /^(Email me a link|Sign in with a passkey|Sign in with API key)$/ });
  await expect(ways).toHaveText(['Email me a link', 'Sign in with a passkey', 'Sign in with API key']);
  await expect(page.getByLabel('Email')).toBeFocused();
  await expectNoSeriousA11yViolations(page, testInfo, 'sign-in-with-passkey');
  await screenshot(page, testInfo, 'sign-in-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshot(page, testInfo, 'sign-in-390');

  // At the config's 127.0.0.1 the browser refuses the passkeys of localhost: the page names the address that works.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/console/sign-in');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toContainText('Passkeys of this console belong to localhost');
});

test('a browser without WebAuthn is not offered passkeys', async ({ page }) => {
  await page.addInitScript(() => Reflect.deleteProperty(window, 'PublicKeyCredential'));
  await page.goto(`${ORIGIN}/console/sign-in`);
  await expect(page.getByRole('button', { name: 'Sign in with API key' })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toHaveCount(0);
});

test('signed in with an API key, "Your account" says passkeys are added from a session', async ({ page, request }, testInfo) => {
  const network = await createNetwork(request, `Passkeys by key ${randomUUID().slice(0, 8)}`);
  await signInToConsole(page, { next: `/console/n/${network.id}` });
  await page.getByRole('link', { name: 'Your account' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Your account' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Signed in as' })).toContainText('An API key “bootstrap”');
  await expect(page.getByText('Passkeys are added from a session')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add a passkey' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, testInfo, 'account-api-key');
  await screenshot(page, testInfo, 'account-api-key-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshot(page, testInfo, 'account-api-key-390');
});
