import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { createNetwork, expectNoSeriousA11yViolations, screenshot, signInToConsole } from './console-helpers';

/** Invite through the dialog; returns the link shown once (and checks it is gone after closing). */
async function invite(page: Page, email: string, role: 'administrator' | 'read_only'): Promise<string> {
  await page.getByRole('button', { name: 'Invite member' }).click();
  const form = page.getByRole('dialog', { name: 'Invite a member' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Role').selectOption(role);
  await form.getByRole('button', { name: 'Create invitation' }).click();
  const reveal = page.getByRole('dialog', { name: 'Invitation created' });
  await expect(reveal.getByText('cannot be shown again')).toBeVisible();
  await expect(reveal.getByText(/Send this link to the invitee/)).toBeVisible();
  const link = await reveal.getByLabel('Invitation link').inputValue();
  expect(link).toMatch(/\/console\/invitations\/accept#token=inv_[A-Za-z0-9]+$/);
  await reveal.getByRole('button', { name: 'I have copied it' }).click();
  await expect(reveal).toBeHidden();
  await expect(page.locator('[data-secret]')).toHaveCount(0);
  return link;
}

test.describe('console identity', () => {
  test('members: invite and accept in a second browser, change a role, the last administrator, revoke an invitation', async ({
    page,
    browser,
    request,
  }, testInfo) => {
    const suffix = randomUUID().slice(0, 8);
    const network = await createNetwork(request, `Identity ${suffix}`);
    await signInToConsole(page);
    await page.goto(`/console/n/${network.id}/members`);
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
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke invitation' }).click();
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
    const suffix = randomUUID().slice(0, 8);
    const network = await createNetwork(request, `Keys ${suffix}`);
    await signInToConsole(page);
    await page.goto(`/console/n/${network.id}/service-accounts`);
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
});
