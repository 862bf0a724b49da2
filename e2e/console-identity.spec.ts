import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createNetwork, e2eToken, expectNoSeriousA11yViolations, screenshot, signInToConsole } from './console-helpers';

/** Invite through the dialog; returns the link shown once (and checks it is gone after closing). */
async function invite(page: Page, email: string, role: 'administrator' | 'read_only'): Promise<string> {
  await page.getByRole('button', { name: 'Invite member' }).click();
  const form = page.getByRole('dialog', { name: 'Invite a member' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Role').selectOption(role);
  await form.getByRole('button', { name: 'Create invitation' }).click();
  const reveal = page.getByRole('dialog', { name: 'Invitation sent' });
  await expect(reveal.getByText('cannot be shown again')).toBeVisible();
  await expect(reveal.getByText(/We emailed this link to the invitee/)).toBeVisible();
  const link = await reveal.getByLabel('Invitation link').inputValue();
  expect(link).toMatch(/\/console\/invitations\/accept#token=inv_[A-Za-z0-9]+$/);
  await reveal.getByRole('button', { name: 'I have copied it' }).click();
  await expect(reveal).toBeHidden();
  await expect(page.locator('[data-secret]')).toHaveCount(0);
  return link;
}

/** Invite `email` through /v1 with the e2e super_user; returns the invitation token (shown once). */
async function inviteThroughApi(request: APIRequestContext, networkId: string, email: string, role: 'administrator' | 'read_only'): Promise<string> {
  const response = await request.post(`/v1/networks/${networkId}/invitations`, {
    headers: { Authorization: `Bearer ${e2eToken()}` },
    data: { email, role },
  });
  expect(response.status()).toBe(201);
  return (await response.json()).token;
}

/** A person with an account: invited to `networkId` and accepting with the token alone (they are new). Returns their key. */
async function personWithAccount(request: APIRequestContext, networkId: string, email: string, name: string): Promise<string> {
  const invitation = await inviteThroughApi(request, networkId, email, 'read_only');
  const accepted = await request.post('/v1/invitations/accept', { headers: { Authorization: `Bearer ${invitation}` }, data: { name } });
  expect(accepted.status()).toBe(201);
  return (await accepted.json()).api_key.token;
}

/** The networks and roles a key reaches, from /v1/me. */
async function scopesOf(request: APIRequestContext, apiKey: string): Promise<{ network_id: string; role: string }[]> {
  const me = await request.get('/v1/me', { headers: { Authorization: `Bearer ${apiKey}` } });
  expect(me.status()).toBe(200);
  return (await me.json()).scopes;
}

const acceptLink = (invitationToken: string) => `/console/invitations/accept#token=${invitationToken}`;

test.describe('console identity', () => {
  test('members: invite and accept in a second browser, change a role, the last administrator, revoke an invitation', async ({
    page,
    browser,
    request,
  }, testInfo) => {
    // The longest flow of the console: two browsers, three invitations, two axe scans and two
    // full-page screenshots. On the 2-core machine of 2026-11-27 it took 49–66 s (the whole browser
    // suite 9–10 min there), against the 60 s default.
    test.setTimeout(180_000);
    const suffix = randomUUID().slice(0, 8);
    const network = await createNetwork(request, `Identity ${suffix}`);
    await signInToConsole(page, { next: `/console/n/${network.id}/members` });
    await expect(page.getByRole('heading', { level: 1, name: 'Members' })).toBeVisible();
    await expect(page.getByText('No members yet')).toBeVisible();

    // Invite Alice as an administrator; she accepts in another browser.
    const aliceEmail = `alice-${suffix}@example.test`;
    const link = await invite(page, aliceEmail, 'administrator');
    const invitations = page.getByRole('table', { name: 'Invitations' });
    const aliceInvitation = invitations.getByRole('row', { name: new RegExp(aliceEmail) });
    await expect(aliceInvitation.getByText('pending')).toBeVisible();
    await expect(aliceInvitation.getByText('You', { exact: true })).toBeVisible();

    const other = await browser.newContext();
    const alice = await other.newPage();
    await alice.goto(link);
    await expect(alice.getByText('Invitation token found in your link.')).toBeVisible();
    await alice.getByLabel('Your name').fill('Alice Admin');
    await alice.getByRole('button', { name: 'Accept invitation' }).click();
    const welcome = alice.getByRole('dialog', { name: 'Welcome! Here is your API key' });
    await expect(welcome.getByLabel('API key')).toHaveValue(/^sk_test_[0-9A-Za-z]{40}$/);
    await welcome.getByRole('button', { name: 'I have copied it' }).click();
    await expect(alice).toHaveURL(new RegExp(`/console/n/${network.id}$`));
    await expect(alice.locator('[data-secret]')).toHaveCount(0);
    await alice.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Members', exact: true }).click();
    const aliceRow = alice.getByRole('table', { name: 'Members' }).getByRole('row', { name: /Alice Admin/ });
    await expect(aliceRow.getByText('Administrator', { exact: true })).toBeVisible();
    await expect(alice.getByRole('button', { name: 'Invite member' })).toBeVisible(); // she administers
    await other.close();

    // The only administrator cannot be removed: a sentence, not a code.
    await page.reload();
    const members = page.getByRole('table', { name: 'Members' });
    await expect(members.getByRole('row', { name: /Alice Admin/ })).toBeVisible();
    await expect(invitations.getByRole('row', { name: new RegExp(aliceEmail) })).toHaveCount(0); // no longer pending
    await page.getByRole('button', { name: 'Remove Alice Admin' }).click();
    const removeDialog = page.getByRole('alertdialog', { name: 'Remove Alice Admin from the network?' });
    await removeDialog.getByRole('button', { name: 'Remove member' }).click();
    await expect(removeDialog.getByRole('alert')).toHaveText('A network needs at least one administrator — promote someone else first.');
    await removeDialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(members.getByRole('row', { name: /Alice Admin/ })).toBeVisible();

    // Bob joins read only (accepting through the API with the link's token); promote, then demote with a confirmation.
    const bobLink = await invite(page, `bob-${suffix}@example.test`, 'read_only');
    const bobToken = new URLSearchParams(new URL(bobLink).hash.slice(1)).get('token')!;
    const accepted = await request.post('/v1/invitations/accept', { headers: { Authorization: `Bearer ${bobToken}` }, data: { name: 'Bob Reader' } });
    expect(accepted.status()).toBe(201);
    await page.reload();
    const bobRow = members.getByRole('row', { name: /Bob Reader/ });
    await expect(bobRow.getByText('Read only', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Make Bob Reader administrator' }).click();
    await expect(bobRow.getByText('Administrator', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Make Bob Reader read only' }).click();
    const demote = page.getByRole('alertdialog', { name: 'Make Bob Reader read only?' });
    await demote.getByRole('button', { name: 'Make read only' }).click();
    await expect(demote).toBeHidden();
    await expect(bobRow.getByText('Read only', { exact: true })).toBeVisible();

    // Revoke an invitation.
    const carolEmail = `carol-${suffix}@example.test`;
    await invite(page, carolEmail, 'read_only');
    await page.getByRole('button', { name: `Revoke the invitation for ${carolEmail}` }).click();
    const confirmRevoke = page.getByRole('alertdialog', { name: `Revoke the invitation for ${carolEmail}?` });
    await confirmRevoke.getByRole('button', { name: 'Revoke invitation' }).click();
    // The dialog closes once the invitation is revoked and the list reloaded. Until then the page
    // behind it is hidden from the accessibility tree, where no row at all would pass the next check.
    await expect(confirmRevoke).toBeHidden();
    await expect(invitations.getByRole('row', { name: new RegExp(carolEmail) })).toHaveCount(0);
    await page.getByLabel('Status').selectOption('');
    await expect(invitations.getByRole('row', { name: new RegExp(carolEmail) }).getByText('revoked')).toBeVisible();
    await expect(invitations.getByRole('row', { name: new RegExp(aliceEmail) }).getByText('accepted', { exact: true })).toBeVisible();

    await expectNoSeriousA11yViolations(page, testInfo, 'members');
    await screenshot(page, testInfo, 'console-members-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByRole('heading', { level: 1, name: 'Members' })).toBeVisible();
    await expectNoSeriousA11yViolations(page, testInfo, 'members-390');
    await screenshot(page, testInfo, 'console-members-390');
  });

  test('service accounts and API keys: create, mint once, rotate with a grace period, revoke, delete', async ({ page, request }, testInfo) => {
    test.setTimeout(180_000); // a long flow too: 36–39 s on that machine
    const suffix = randomUUID().slice(0, 8);
    const network = await createNetwork(request, `Keys ${suffix}`);
    await signInToConsole(page, { next: `/console/n/${network.id}/service-accounts` });
    await expect(page.getByRole('heading', { level: 1, name: 'Service accounts' })).toBeVisible();
    await expect(page.getByText('No service accounts yet')).toBeVisible();

    // Create: the first key is shown once.
    await page.getByRole('button', { name: 'Create service account' }).click();
    const create = page.getByRole('dialog', { name: 'Create a service account' });
    await create.getByRole('button', { name: 'Create', exact: true }).click();
    await expect(create.getByText('name must not be blank.')).toBeVisible();
    await create.getByLabel('Name', { exact: true }).fill('Billing export');
    await create.getByRole('button', { name: 'Create', exact: true }).click();
    const first = page.getByRole('dialog', { name: 'Service account created' });
    await expect(first.getByLabel('API key')).toHaveValue(/^sk_test_/);
    await first.getByRole('button', { name: 'I have copied it' }).click();
    const accounts = page.getByRole('table', { name: 'Service accounts' });
    await expect(accounts.getByRole('row', { name: /Billing export/ })).toBeVisible();

    // Mint a key for it: shown once, then gone; listed by its start.
    await page.getByRole('button', { name: 'Mint a key for Billing export' }).click();
    const mint = page.getByRole('dialog', { name: 'Mint a key for Billing export' });
    await mint.getByLabel('Key name').fill('nightly');
    await expect(mint.getByLabel('Role').locator('option[value="administrator"]')).toBeDisabled(); // never above the account's role
    await mint.getByRole('button', { name: 'Mint key' }).click();
    const minted = page.getByRole('dialog', { name: 'API key minted' });
    const token = await minted.getByLabel('API key').inputValue();
    expect(token).toMatch(/^sk_test_[0-9A-Za-z]{40}$/);
    await expect(minted.getByText('cannot be shown again')).toBeVisible();
    await minted.getByRole('button', { name: 'I have copied it' }).click();
    await expect(minted).toBeHidden();
    await expect(page.locator('[data-secret]')).toHaveCount(0);
    expect(await page.content()).not.toContain(token);

    await page.getByRole('link', { name: 'View the keys of Billing export' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
    await expect(page).toHaveURL(/\/api-keys\?owner=sa_/);
    const keys = page.getByRole('table', { name: 'API keys' });
    const start = token.slice(0, 12);
    const nightly = keys.getByRole('row').filter({ hasText: `${start}…` });
    await expect(nightly.getByText('nightly')).toBeVisible();
    await expect(nightly.getByText('Billing export')).toBeVisible();
    await expect(nightly.getByText('active')).toBeVisible();
    await expect(keys.getByRole('row').filter({ hasText: 'default' })).toHaveCount(1);

    // Rotate with a one-hour grace period: the new token once; the old one keeps working until then.
    await nightly.getByRole('button', { name: 'Rotate nightly' }).click();
    const rotate = page.getByRole('dialog', { name: 'Rotate “nightly”' });
    await rotate.getByLabel('Grace period').selectOption('3600');
    await rotate.getByRole('button', { name: 'Rotate key' }).click();
    const rotated = page.getByRole('dialog', { name: 'Key rotated' });
    const newToken = await rotated.getByLabel('New API key').inputValue();
    expect(newToken).toMatch(/^sk_test_/);
    expect(newToken).not.toBe(token);
    await rotated.getByRole('button', { name: 'I have copied it' }).click();
    await expect(nightly.getByText('rotated')).toBeVisible();
    await expect(nightly.getByText(/works until/)).toBeVisible();
    expect((await request.get('/v1/me', { headers: { Authorization: `Bearer ${token}` } })).status()).toBe(200);

    // Revoke the replacement.
    const replacement = keys.getByRole('row').filter({ hasText: `${newToken.slice(0, 12)}…` });
    await expect(replacement.getByText('active')).toBeVisible();
    await replacement.getByRole('button', { name: 'Revoke nightly' }).click();
    await page.getByRole('alertdialog', { name: 'Revoke “nightly”?' }).getByRole('button', { name: 'Revoke key' }).click();
    await expect(replacement.getByText('revoked')).toBeVisible();
    expect((await request.get('/v1/me', { headers: { Authorization: `Bearer ${newToken}` } })).status()).toBe(401);

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(page).toHaveURL(/\/api-keys$/);

    // Mint from the API keys page, choosing the owner.
    await page.getByRole('button', { name: 'Mint key' }).click();
    const mintHere = page.getByRole('dialog', { name: 'Mint an API key' });
    await mintHere.getByLabel('Key name').fill('reporting');
    await mintHere.getByLabel('Owner').selectOption({ label: 'Billing export — Read only' });
    await mintHere.getByRole('button', { name: 'Mint key' }).click();
    const mintedHere = page.getByRole('dialog', { name: 'API key minted' });
    await expect(mintedHere.getByLabel('API key')).toHaveValue(/^sk_test_/);
    await mintedHere.getByRole('button', { name: 'I have copied it' }).click();
    await expect(keys.getByRole('row').filter({ hasText: 'reporting' }).getByText('active')).toBeVisible();
    await expectNoSeriousA11yViolations(page, testInfo, 'api-keys');
    await screenshot(page, testInfo, 'console-api-keys-1280');

    // Delete the service account: its keys are revoked.
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Service accounts', exact: true }).click();
    await expect(accounts.getByRole('row', { name: /Billing export/ })).toBeVisible();
    await expectNoSeriousA11yViolations(page, testInfo, 'service-accounts');
    await screenshot(page, testInfo, 'console-service-accounts-1280');
    await page.getByRole('button', { name: 'Delete Billing export' }).click();
    await page.getByRole('alertdialog', { name: 'Delete Billing export?' }).getByRole('button', { name: 'Delete service account' }).click();
    await expect(page.getByText('No service accounts yet')).toBeVisible();
    expect((await request.get('/v1/me', { headers: { Authorization: `Bearer ${token}` } })).status()).toBe(401);
  });

  test('an invitee who already has an account proves it with their own key; a key of someone else or of a service account is refused', async ({
    browser,
    request,
  }, testInfo) => {
    const suffix = randomUUID().slice(0, 8);
    const home = await createNetwork(request, `Home ${suffix}`);
    const second = await createNetwork(request, `Second ${suffix}`);
    const third = await createNetwork(request, `Third ${suffix}`);
    const danaEmail = `dana-${suffix}@example.test`;
    const danaKey = await personWithAccount(request, home.id, danaEmail, 'Dana Existing');
    const erinKey = await personWithAccount(request, home.id, `erin-${suffix}@example.test`, 'Erin Other');

    // Dana, not signed in, opens her invitation to a second network: the link alone is not enough.
    const context = await browser.newContext();
    const dana = await context.newPage();
    await dana.goto(acceptLink(await inviteThroughApi(request, second.id, danaEmail, 'read_only')));
    await expect(dana.getByText('Invitation token found in your link.')).toBeVisible();
    // The page says what the link is for before anything is accepted (GET /v1/invitations/current).
    await expect(dana.getByTestId('invitation-summary')).toContainText(
      `Platform operator invited ${danaEmail.toLowerCase()} to join Second ${suffix} as a read-only member.`,
    );
    await dana.getByRole('button', { name: 'Accept invitation' }).click();
    const explanation = dana.getByRole('heading', { level: 2, name: `You already have an account with ${danaEmail}.` });
    await expect(explanation).toBeFocused();
    await expect(dana.getByText('Prove it’s you with one of your API keys.', { exact: false })).toBeVisible();
    await expect(dana.getByLabel('Your name')).toHaveCount(0); // an existing account keeps its name
    await expect(dana.getByRole('radio')).toHaveCount(0); // not signed in: pasting is the only way

    // Somebody else's key is refused, on the field, and not kept.
    const keyField = dana.getByLabel('Your API key');
    await keyField.fill(erinKey);
    await dana.getByRole('button', { name: 'Accept with this key' }).click();
    const someoneElse = `That key belongs to someone else, not to ${danaEmail}. Paste one of your own API keys.`;
    await expect(dana.getByText(someoneElse)).toBeVisible();
    await expect(keyField).toHaveAccessibleDescription(/^That key belongs to someone else/); // the error first, then the hint
    await expect(keyField).toHaveAttribute('aria-invalid', 'true');
    await expect(keyField).toBeFocused();
    await expect(keyField).toHaveValue('');
    await expectNoSeriousA11yViolations(dana, testInfo, 'accept-prove-refused');
    await screenshot(dana, testInfo, 'console-accept-prove-refused-1280');

    // Her own key, with the keyboard: a fresh key for the second network, shown once, and she is signed in with it.
    await keyField.fill(danaKey);
    await dana.getByLabel('Name of your new key').fill('laptop');
    await keyField.press('Enter');
    const welcome = dana.getByRole('dialog', { name: 'Welcome! Here is your API key' });
    await expect(welcome.getByText('Key “laptop”', { exact: false })).toBeVisible();
    const secondKey = await welcome.getByLabel('API key').inputValue();
    expect(secondKey).toMatch(/^sk_test_[0-9A-Za-z]{40}$/);
    expect(secondKey).not.toBe(danaKey);
    expect(dana.url()).not.toContain(danaKey);
    expect(await dana.content()).not.toContain(danaKey);
    await welcome.getByRole('button', { name: 'I have copied it' }).click();
    await expect(dana).toHaveURL(new RegExp(`/console/n/${second.id}$`));
    await expect(dana.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
    expect(await dana.evaluate(() => sessionStorage.getItem('ans.console.apiKey'))).toBe(secondKey);
    expect(await scopesOf(request, secondKey)).toEqual([{ network_id: second.id, role: 'read_only' }]);
    expect(await scopesOf(request, danaKey)).toEqual([{ network_id: home.id, role: 'read_only' }]); // old keys never get the network

    // Invited to a third network, in the same tab, signed in: one click with the key of this tab.
    const service = await request.post(`/v1/networks/${home.id}/service-accounts`, {
      headers: { Authorization: `Bearer ${e2eToken()}` },
      data: { name: `Robot ${suffix}`, role: 'read_only' },
    });
    expect(service.status()).toBe(201);
    const serviceKey: string = (await service.json()).api_key.token;
    await dana.goto(acceptLink(await inviteThroughApi(request, third.id, danaEmail, 'administrator')));
    await dana.getByRole('button', { name: 'Accept invitation' }).click();
    await expect(explanation).toBeFocused();
    const signedIn = dana.getByRole('radio', { name: 'The key this tab is signed in with' });
    await expect(signedIn).toBeChecked();
    await expect(signedIn).toHaveAccessibleDescription(`${secondKey.slice(0, 12)}…`);
    await expect(dana.getByLabel('Your API key')).toHaveCount(0);
    await expectNoSeriousA11yViolations(dana, testInfo, 'accept-prove-signed-in');
    await screenshot(dana, testInfo, 'console-accept-prove-1280');
    await dana.setViewportSize({ width: 390, height: 844 });
    await expect(explanation).toBeVisible();
    await expectNoSeriousA11yViolations(dana, testInfo, 'accept-prove-signed-in-390');
    await screenshot(dana, testInfo, 'console-accept-prove-390');

    // Pasting another key instead: a service account's key is refused.
    await dana.getByRole('radio', { name: 'Paste another key' }).check();
    await dana.getByLabel('Your API key').fill(serviceKey);
    await dana.getByRole('button', { name: 'Accept with this key' }).click();
    await expect(dana.getByLabel('Your API key')).toHaveAccessibleDescription(
      /^That key belongs to a service account, and invitations are for people\./,
    );
    await expectNoSeriousA11yViolations(dana, testInfo, 'accept-prove-service-account-390');
    await screenshot(dana, testInfo, 'console-accept-prove-refused-390');

    await signedIn.check();
    await dana.getByRole('button', { name: 'Accept with the signed-in key' }).click();
    const thirdKey = await welcome.getByLabel('API key').inputValue();
    expect(thirdKey).toMatch(/^sk_test_/);
    await welcome.getByRole('button', { name: 'I have copied it' }).click();
    await expect(dana).toHaveURL(new RegExp(`/console/n/${third.id}$`));
    await expect(dana.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
    expect(await dana.evaluate(() => sessionStorage.getItem('ans.console.apiKey'))).toBe(thirdKey);
    expect(await scopesOf(request, thirdKey)).toEqual([{ network_id: third.id, role: 'administrator' }]);
    await context.close();
  });
});

test('an invitation link that cannot be used says why, naming the network: revoked, accepted, or not a valid link', async ({
  page,
  request,
}, testInfo) => {
  const suffix = randomUUID().slice(0, 8);
  const network = await createNetwork(request, `Spent links ${suffix}`);
  const headers = { Authorization: `Bearer ${e2eToken()}` };

  const revoked = await request.post(`/v1/networks/${network.id}/invitations`, {
    headers,
    data: { email: `gone-${suffix}@example.test`, role: 'read_only' },
  });
  const { id: revokedId, token: revokedToken } = (await revoked.json()) as { id: string; token: string };
  expect((await request.delete(`/v1/networks/${network.id}/invitations/${revokedId}`, { headers })).status()).toBe(200);
  await page.goto(acceptLink(revokedToken));
  await expect(page.getByTestId('invitation-summary')).toHaveText(
    `This invitation to ${network.name} was revoked. Ask an administrator of the network for a new one.`,
  );
  await expectNoSeriousA11yViolations(page, testInfo, 'invitation-revoked');

  const usedToken = await inviteThroughApi(request, network.id, `used-${suffix}@example.test`, 'read_only');
  expect(
    (await request.post('/v1/invitations/accept', { headers: { Authorization: `Bearer ${usedToken}` }, data: { name: 'Uma Used' } })).status(),
  ).toBe(201);
  await page.goto(acceptLink(usedToken));
  await expect(page.getByTestId('invitation-summary')).toContainText(`This invitation to ${network.name} has already been accepted.`);

  // Well formed, but no invitation has it (one character changed).
  const forged = usedToken.slice(0, -1) + (usedToken.endsWith('A') ? 'B' : 'A');
  await page.goto(acceptLink(forged));
  await expect(page.getByRole('alert').filter({ hasText: 'This invitation link is not valid. Check that you copied the whole link.' })).toBeVisible();
});
