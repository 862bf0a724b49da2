import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createNetwork, expectNoSeriousA11yViolations, post, screenshot, signInToConsole, v1 } from './console-helpers';

/*
 * Voice consent (issue 38, first slice): an administrator asks a podcast's host; the host opens the
 * emailed link on a phone, reads the statement, grants, sees it granted, and revokes — all on the
 * public consent page, with the link's token as the only credential. Then the administrator's side:
 * the podcast's "Consent" page lists the consents, asks again from its dialog, and withdraws a
 * request. The link is read from the development mailbox (the e2e service has no SMTP_URL;
 * tests/http/voice-consents.test.ts reads it off a real SMTP server).
 */

type Email = { id: string; subject: string; link: string | null };
type Consent = { id: string; status: string; statement: { version: number; sha256: string } | null; decision_user_agent: string | null };

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/** The consent link mailed to `to`, from the development mailbox. */
async function consentLinkFor(request: APIRequestContext, to: string): Promise<string> {
  let link: string | null = null;
  await expect
    .poll(
      async () => {
        const list = await v1<{ items: Email[] }>(request, 'GET', `/emails?to=${encodeURIComponent(to)}`);
        const mail = list.items.find((e) => e.subject.endsWith('asks for your consent to ads in your voice'));
        if (!mail) return false;
        link = (await v1<Email>(request, 'GET', `/emails/${mail.id}`)).link;
        return link !== null;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  return link!.replace(/^https?:\/\/[^/]+/, '');
}

/** Nothing on the page scrolls sideways. */
async function expectFits(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `page scrolls sideways at ${width}`).toBeLessThanOrEqual(width);
}

test('a host grants voice consent on their phone from the emailed link, sees it granted, and revokes it', async ({ page, request }, testInfo) => {
  test.setTimeout(120_000);
  const suffix = randomUUID().slice(0, 8);
  const network = await createNetwork(request, `Moonlight Audio ${suffix}`);
  const acme = await post<{ id: string }>(request, `/networks/${network.id}/advertisers`, { name: 'Acme Mattresses' });
  const podcast = await post<{ id: string }>(request, `/networks/${network.id}/podcasts`, { name: 'Night Owls', host_name: 'Sam Rivera' });
  const email = `sam-${suffix}@hosts.example`;
  const asked = await post<Consent>(request, `/networks/${network.id}/podcasts/${podcast.id}/voice-consents`, {
    host_name: 'Sam Rivera',
    host_email: email,
    scope: 'advertisers',
    advertiser_ids: [acme.id],
  });
  const link = await consentLinkFor(request, email);
  expect(link).toMatch(/^\/console\/voice-consent#token=vcl_/);

  // --- The host, on a phone ----------------------------------------------------------------------
  await page.setViewportSize(PHONE);
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Voice consent for Night Owls' })).toBeVisible();
  await expect(page.getByRole('main')).toContainText(`Moonlight Audio ${suffix} asks you, Sam Rivera, for consent`);
  await expect(page.getByTestId('consent-scope')).toHaveText('The campaigns of Acme Mattresses');
  await expect(page.getByTestId('consent-statement')).toContainText('It does not keep my IP address.');
  await expect(page.getByTestId('consent-state')).toContainText('Waiting for your answer.');
  await expectFits(page, PHONE.width);
  // The buttons are within reach and full width on the phone.
  const grant = page.getByRole('button', { name: 'Grant consent' });
  expect((await grant.boundingBox())!.width).toBeGreaterThan(300);
  await expectNoSeriousA11yViolations(page, testInfo, 'voice-consent-pending-390');
  await screenshot(page, testInfo, 'voice-consent-pending-390');
  // Opening the link decided nothing.
  expect((await v1<Consent>(request, 'GET', `/networks/${network.id}/voice-consents/${asked.id}`)).status).toBe('pending');

  await grant.click();
  await expect(page.getByTestId('consent-state')).toContainText('You granted consent on');
  await expect(page.getByRole('button', { name: 'Grant consent' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Refuse' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, testInfo, 'voice-consent-granted-390');
  await screenshot(page, testInfo, 'voice-consent-granted-390');
  const granted = await v1<Consent>(request, 'GET', `/networks/${network.id}/voice-consents/${asked.id}`);
  expect(granted.status).toBe('granted');
  expect(granted.statement?.version).toBe(1);
  expect(granted.decision_user_agent).toBe(await page.evaluate(() => navigator.userAgent));

  // A reload keeps it: the page reads the state from the API with the same link.
  await page.reload();
  await expect(page.getByTestId('consent-state')).toContainText('You granted consent on');
  await page.setViewportSize(DESKTOP);
  await expectFits(page, DESKTOP.width);
  await expectNoSeriousA11yViolations(page, testInfo, 'voice-consent-granted-1280');
  await screenshot(page, testInfo, 'voice-consent-granted-1280');
  await page.setViewportSize(PHONE);

  await page.getByRole('button', { name: 'Revoke consent' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Revoke your consent?' });
  await expect(confirm).toContainText('Ads made before are not undone.');
  await screenshot(page, testInfo, 'voice-consent-revoke-confirm-390');
  await confirm.getByRole('button', { name: 'Revoke consent' }).click();
  await expect(page.getByTestId('consent-state')).toContainText('You revoked your consent on');
  await expect(page.getByRole('button', { name: 'Revoke consent' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, testInfo, 'voice-consent-revoked-390');
  await screenshot(page, testInfo, 'voice-consent-revoked-390');
  expect((await v1<Consent>(request, 'GET', `/networks/${network.id}/voice-consents/${asked.id}`)).status).toBe('revoked');

  // Anyone without the link: a token that opens nothing is "not valid", as an expired one is.
  await page.goto(`/console/voice-consent#token=vcl_${'A'.repeat(40)}`);
  await expect(page.getByRole('heading', { name: 'This link is not valid' })).toBeVisible();
  await expect(page.getByRole('main').getByRole('alert')).toContainText('not valid, or it has expired');
  await expectNoSeriousA11yViolations(page, testInfo, 'voice-consent-invalid-390');
  await screenshot(page, testInfo, 'voice-consent-invalid-390');
});

test('an administrator asks a podcast’s host for consent from the podcast, and withdraws the request', async ({ page, request }, testInfo) => {
  test.setTimeout(120_000);
  const suffix = randomUUID().slice(0, 8);
  const network = await createNetwork(request, `Consent Admin ${suffix}`);
  await post(request, `/networks/${network.id}/advertisers`, { name: 'Acme Mattresses' });
  await post(request, `/networks/${network.id}/advertisers`, { name: 'Zed Coffee' });
  const podcast = await post<{ id: string }>(request, `/networks/${network.id}/podcasts`, { name: 'Night Owls', host_name: 'Sam Rivera' });

  await signInToConsole(page, { next: `/console/n/${network.id}/podcasts` });
  await page.getByRole('link', { name: 'Voice consent for Night Owls' }).click();
  await expect(page).toHaveURL(new RegExp(`/podcasts/${podcast.id}/voice-consent$`));
  await expect(page.getByRole('heading', { name: 'Voice consent · Night Owls' })).toBeVisible();
  await expect(page.getByText('No consent asked for yet')).toBeVisible();

  await page.getByRole('button', { name: 'Request consent' }).click();
  const dialog = page.getByRole('dialog', { name: 'Request voice consent' });
  await expect(dialog.getByLabel('Host name')).toHaveValue('Sam Rivera');
  const email = `sam-${suffix}@hosts.example`;
  await dialog.getByLabel('Host email').fill(email);
  await dialog.getByLabel('Covers').selectOption('advertisers');
  await dialog.getByRole('button', { name: 'Send request' }).click();
  await expect(dialog.getByText('With scope advertisers, list the advertisers the consent covers.')).toBeVisible();
  await dialog.getByRole('checkbox', { name: 'Zed Coffee' }).click();
  await expectNoSeriousA11yViolations(page, testInfo, 'voice-consents-request-dialog-1280');
  await screenshot(page, testInfo, 'voice-consents-request-dialog-1280');
  await dialog.getByRole('button', { name: 'Send request' }).click();
  await expect(dialog).toHaveCount(0);

  const table = page.getByRole('table', { name: 'Voice consents of Night Owls' });
  const row = table.getByRole('row').filter({ hasText: email });
  await expect(row).toContainText('The campaigns of Zed Coffee');
  await expect(row).toContainText('pending');
  expect(await consentLinkFor(request, email)).toMatch(/#token=vcl_/);
  await expectNoSeriousA11yViolations(page, testInfo, 'voice-consents-1280');
  await screenshot(page, testInfo, 'voice-consents-1280');

  await row.getByRole('button', { name: 'Revoke the consent of Sam Rivera' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Withdraw the request to Sam Rivera?' });
  await confirm.getByRole('button', { name: 'Withdraw request' }).click();
  await expect(row).toContainText('revoked');
  await expect(row).toContainText('Revoked by an administrator');

  await page.setViewportSize(PHONE);
  await expectFits(page, PHONE.width);
  await expectNoSeriousA11yViolations(page, testInfo, 'voice-consents-390');
  await screenshot(page, testInfo, 'voice-consents-390');
});
