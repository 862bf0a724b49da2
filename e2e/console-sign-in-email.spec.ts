import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { createNetwork, expectNoSeriousA11yViolations, post, screenshot, signInLinkFor, v1 } from './console-helpers';

/*
 * A person signs in with their email address (issue 36): the sign-in page offers it first, the link
 * arrives in the development mailbox (the e2e service has no SMTP_URL; tests/http/sign-in.test.ts
 * reads it off a real SMTP server), and following it signs the tab in with a session key that
 * signing out ends on the server.
 */

test('a person signs in with an emailed link, lands in their network, and signs out for good', async ({ page, request }, testInfo) => {
  test.setTimeout(120_000);
  const suffix = randomUUID().slice(0, 8);
  const email = `noor-${suffix}@example.com`;
  const network = await createNetwork(request, `Email Sign-in ${suffix}`);
  const invited = await post<{ token: string }>(request, `/networks/${network.id}/invitations`, { email, role: 'administrator' });
  await post(request, '/invitations/accept', { name: 'Noor Haddad' }, invited.token);

  await page.goto('/console/sign-in');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  // The person's way first: the email field has the focus.
  await expect(page.getByLabel('Email')).toBeFocused();
  await screenshot(page, testInfo, 'sign-in-1280');
  await expectNoSeriousA11yViolations(page, testInfo, 'sign-in');
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, testInfo, 'sign-in-390');
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.getByLabel('Email').fill('not an address');
  await page.getByRole('button', { name: 'Email me a link' }).click();
  await expect(page.getByText('That does not look like an email address.')).toBeVisible();
  await page.getByLabel('Email').fill(email.toUpperCase());
  await page.getByRole('button', { name: 'Email me a link' }).click();
  const sent = page.getByRole('status').filter({ hasText: 'Check your inbox' });
  await expect(sent).toContainText(`If ${email} has an account, a sign-in link is on its way. It works once, for 15 minutes.`);
  await expectNoSeriousA11yViolations(page, testInfo, 'sign-in-sent');
  await screenshot(page, testInfo, 'sign-in-sent-1280');

  const link = await signInLinkFor(request, email);
  expect(link).toMatch(/\/console\/sign-in\/email#token=sil_/);
  await page.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  // Into the console, signed in as the person; the token is gone from the address bar.
  await expect(page).toHaveURL(new RegExp(`/console/n/${network.id}`));
  const who = page.getByTestId('signed-in-as');
  await expect(who).toContainText('Noor Haddad');
  await expect(who).toContainText('Session until');
  await expect(page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Members' })).toBeVisible();
  await screenshot(page, testInfo, 'signed-in-with-email-1280');

  const sessionKey = await page.evaluate(() => sessionStorage.getItem('ans.console.apiKey'));
  expect(sessionKey).toMatch(/^sk_test_/);
  expect((await v1<{ session: boolean }>(request, 'GET', '/me', undefined, sessionKey!)).session).toBe(true);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/console\/sign-in$/);
  // Ended on the server: the key no longer works anywhere.
  const after = await request.get('/v1/me', { headers: { Authorization: `Bearer ${sessionKey}` } });
  expect(after.status()).toBe(401);

  // The same link again: used up, and the page says so.
  await page.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  await expect(page.getByRole('heading', { name: 'This link did not sign you in' })).toBeVisible();
  await expect(page.getByRole('main').getByRole('alert')).toContainText('already been used');
  await expect(page.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/console/sign-in');
  await expect(page).toHaveURL(/\/console\/sign-in\/email$/);
  await expectNoSeriousA11yViolations(page, testInfo, 'sign-in-link-used');
  await screenshot(page, testInfo, 'sign-in-link-used-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, testInfo, 'sign-in-link-used-390');
});
