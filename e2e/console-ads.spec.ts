import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import {
  createNetwork,
  e2eToken,
  expectNoSeriousA11yViolations,
  grantVoiceConsent,
  holdVoice,
  releaseVoice,
  screenshot,
  signInToConsole,
} from './console-helpers';

/**
 * The advertising flow through the console, against the real server and its
 * worker (voice synthesis through a fake vendor that holds this spec's script, e2e/serve.ts): advertiser → campaign (activated) → podcast →
 * opt in (its host grants their voice, over /v1) → offers → accept (creative generating → pending
 * approval, its audio plays and downloads on demand for the administrator who reviews it) and reject
 * with a reason; conflicts and refusals are shown as sentences. The review itself is
 * e2e/creative-review.spec.ts's.
 */

const SCRIPT =
  'Sleep better tonight with Acme Mattresses. Our spring sale is on now: every mattress, pillow and frame is twenty percent off ' +
  'when you use the code POD at checkout. Acme mattresses are made to order, delivered free, and come with a hundred night trial, ' +
  'so if you do not sleep better, send it back and pay nothing. Thousands of listeners of this show already wake up rested. ' +
  'Visit acme dot example slash pod today, and use code POD for twenty percent off. Acme Mattresses: sleep better tonight.';

const auth = { Authorization: `Bearer ${e2eToken()}` };

/** Record every status the creatives table shows, from the first render on (to see "generating" even if it is brief). */
async function recordCreativeStatuses(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __creativeStatuses: string[] }).__creativeStatuses = seen;
    const record = () => {
      for (const el of document.querySelectorAll('[data-testid^="creative-status-"]')) {
        const text = el.textContent?.trim() ?? '';
        if (text && seen[seen.length - 1] !== text) seen.push(text);
      }
    };
    new MutationObserver(record).observe(document, { subtree: true, childList: true, characterData: true });
  });
}

test.describe('console: the advertising flow', () => {
  test('advertiser → campaign → podcast → opt in → offers → accept and reject → creative pending approval with audio', async ({
    page,
    request,
  }, testInfo) => {
    test.setTimeout(240_000);
    const suffix = randomUUID().slice(0, 8);
    const network = await createNetwork(request, `Ads ${suffix}`);
    const base = `/console/n/${network.id}`;
    const v1 = `/v1/networks/${network.id}`;
    await recordCreativeStatuses(page);

    // --- Advertisers: empty, create, edit with a conflict, edit -------------------------------
    await signInToConsole(page, { next: `${base}/advertisers` });
    const nav = page.getByRole('navigation', { name: 'Console' });
    await expect(page.getByRole('heading', { level: 1, name: 'Advertisers' })).toBeVisible();
    await expect(page.getByText('No advertisers yet')).toBeVisible();
    await page.getByRole('button', { name: 'New advertiser' }).first().click();
    let dialog = page.getByRole('dialog', { name: 'New advertiser' });
    await dialog.getByRole('button', { name: 'Create advertiser' }).click();
    await expect(dialog.getByText('name must not be blank.')).toBeVisible();
    await dialog.getByLabel('Name').fill('Acme Mattresses');
    await dialog.getByLabel('Website').fill('https://acme.example');
    await dialog.getByLabel('Contact email').fill('ads@acme.example');
    await dialog.getByRole('button', { name: 'Create advertiser' }).click();
    await expect(dialog).toBeHidden();
    const advertiserRow = page.getByRole('row').filter({ hasText: 'Acme Mattresses' });
    await expect(advertiserRow).toBeVisible();
    await expect(advertiserRow.getByText('acme.example', { exact: true })).toBeVisible();

    // Someone else renames it while the edit dialog is open: saving explains the conflict.
    await page.getByRole('button', { name: 'Edit Acme Mattresses' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit Acme Mattresses' });
    const advertisers = (await (await request.get(`${v1}/advertisers`, { headers: auth })).json()) as { items: { id: string; version: number }[] };
    const advertiser = advertisers.items[0]!;
    expect(
      (
        await request.patch(`${v1}/advertisers/${advertiser.id}`, {
          headers: auth,
          data: { contact_email: 'media@acme.example', version: advertiser.version },
        })
      ).status(),
    ).toBe(200);
    await dialog.getByLabel('Name').fill('Acme Mattresses Inc.');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await expect(dialog.getByRole('alert')).toContainText('someone else changed this while you were editing');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(advertiserRow.getByText('media@acme.example')).toBeVisible();
    await page.getByRole('button', { name: 'Edit Acme Mattresses' }).click();
    await dialog.getByLabel('Name').fill('Acme Mattresses Inc.');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('row').filter({ hasText: 'Acme Mattresses Inc.' })).toBeVisible();
    await expectNoSeriousA11yViolations(page, testInfo, 'advertisers');
    await screenshot(page, testInfo, 'console-advertisers-1280');

    // --- Campaigns: create, then activate from its page ----------------------------------------
    await nav.getByRole('link', { name: 'Campaigns', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Campaigns' })).toBeVisible();
    await expect(page.getByText('No campaigns yet')).toBeVisible();
    await page.getByRole('button', { name: 'New campaign' }).first().click();
    dialog = page.getByRole('dialog', { name: 'New campaign' });
    await dialog.getByLabel('Advertiser').selectOption({ label: 'Acme Mattresses Inc.' });
    await dialog.getByLabel('Name').fill('Spring sale');
    await dialog.getByLabel('Script').fill(SCRIPT);
    await expect(dialog.getByText(`${SCRIPT.length} / 2,000 characters`)).toBeVisible();
    await dialog.getByLabel('Budget').fill('5000');
    await expect(dialog.getByText(/\$5,000\.00 in total/)).toBeVisible();
    await dialog.getByRole('button', { name: 'Create campaign' }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`${base}/campaigns/cmp_`));
    const campaignUrl = page.url();
    const campaignId = campaignUrl.split('/').pop()!;
    await expect(page.getByRole('heading', { level: 1, name: /Spring sale/ })).toContainText('draft');
    await page.getByRole('button', { name: 'Activate' }).click();
    await expect(page.getByRole('heading', { level: 1, name: /Spring sale/ })).toContainText('active');
    await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Activate' })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page, testInfo, 'campaign-detail');
    await screenshot(page, testInfo, 'console-campaign-detail-1280');

    await page.getByRole('link', { name: 'All campaigns' }).click();
    await expect(page.getByRole('row').filter({ hasText: 'Spring sale' })).toContainText('active');
    await page.getByLabel('Status').selectOption('paused');
    await expect(page.getByText('No campaigns match these filters')).toBeVisible();
    await page.getByLabel('Status').selectOption('active');
    await page.getByLabel('Advertiser').selectOption({ label: 'Acme Mattresses Inc.' });
    await expect(page.getByRole('row').filter({ hasText: 'Spring sale' })).toBeVisible();
    await expect(page).toHaveURL(/status=active/);
    await expectNoSeriousA11yViolations(page, testInfo, 'campaigns');
    await screenshot(page, testInfo, 'console-campaigns-1280');

    // --- Podcasts: create, opt in, edit ----------------------------------------------------------
    await nav.getByRole('link', { name: 'Podcasts', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Podcasts' })).toBeVisible();
    await page.getByRole('button', { name: 'New podcast' }).first().click();
    dialog = page.getByRole('dialog', { name: 'New podcast' });
    await dialog.getByLabel('Podcast name').fill('Night Owls');
    await dialog.getByLabel('Host name').fill('Sam');
    await dialog.getByLabel('Voice preset').selectOption('warm');
    await dialog.getByLabel('RSS feed URL').fill('not a url');
    await dialog.getByRole('button', { name: 'Add podcast' }).click();
    await expect(dialog.getByText('rss_url must be an http or https URL.')).toBeVisible();
    await dialog.getByLabel('RSS feed URL').fill('https://night-owls.example/feed.xml');
    await dialog.getByRole('button', { name: 'Add podcast' }).click();
    await expect(dialog).toBeHidden();
    const podcastRow = page.getByRole('row').filter({ hasText: 'Night Owls' });
    await expect(podcastRow).toContainText('Not opted in');
    await expect(podcastRow).toContainText('warm');
    await page.getByRole('button', { name: 'Opt in Night Owls' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Opt Night Owls in?' });
    await expect(confirm).toContainText('only opted-in podcasts can receive offers');
    await confirm.getByRole('button', { name: 'Opt in' }).click();
    await expect(confirm).toBeHidden();
    await expect(podcastRow).toContainText('Opted in');
    await expect(page.getByRole('button', { name: 'Opt out Night Owls' })).toBeVisible();
    // Edit: another voice, and the feed cleared (an emptied field clears it).
    await page.getByRole('button', { name: 'Edit Night Owls' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit Night Owls' });
    await expect(dialog.getByLabel('Voice preset')).toHaveValue('warm');
    await dialog.getByLabel('Voice preset').selectOption('calm');
    await dialog.getByLabel('RSS feed URL').fill('');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await expect(dialog).toBeHidden();
    await expect(podcastRow).toContainText('calm');
    await expect(podcastRow.getByRole('link', { name: /RSS/ })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page, testInfo, 'podcasts');
    await screenshot(page, testInfo, 'console-podcasts-1280');

    // The host grants their voice for every campaign, over /v1 (their page is e2e/voice-consent.spec.ts's):
    // nothing is said in it before, a preview included; the accepted offer's creative is made.
    const podcasts = (await (await request.get(`${v1}/podcasts`, { headers: auth })).json()) as { items: { id: string; name: string }[] };
    await grantVoiceConsent(request, network.id, podcasts.items.find((p) => p.name === 'Night Owls')!.id);

    // --- Voice preview of the campaign in the podcast's voice ----------------------------------
    await page.goto(campaignUrl);
    await page.getByRole('radio', { name: /Night Owls/ }).check();
    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByLabel('Voice preview');
    await expect(preview).toBeVisible({ timeout: 60_000 });
    await expect
      .poll(() => preview.evaluate((el: HTMLAudioElement) => ({ ready: el.readyState >= 1, blob: el.src.startsWith('blob:') })), { timeout: 30_000 })
      .toEqual({ ready: true, blob: true });

    // --- Offers: make two, accept one, reject the other, and one accepted elsewhere → 409 -------
    await nav.getByRole('link', { name: 'Offers', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Offers' })).toBeVisible();
    await expect(page.getByText('No offers yet')).toBeVisible();
    for (const price of ['250', '100', '75']) {
      await page.getByRole('button', { name: 'New offer' }).first().click();
      dialog = page.getByRole('dialog', { name: 'New offer' });
      await dialog.getByLabel('Campaign').selectOption({ label: 'Spring sale (active)' });
      await dialog.getByLabel('Podcast').selectOption({ label: 'Night Owls — Sam' });
      await dialog.getByLabel('Price').fill(price);
      await dialog.getByRole('button', { name: 'Make offer' }).click();
      await expect(dialog).toBeHidden();
      // The "Offer made" toast stays clear of the page's main action, so the next offer can be made at once.
      const toastBox = await page.locator('[data-sonner-toast]').filter({ hasText: 'Offer made' }).last().boundingBox();
      const buttonBox = await page.getByRole('button', { name: 'New offer' }).first().boundingBox();
      expect(toastBox && buttonBox, 'the toast and the New offer button are both on screen').toBeTruthy();
      const overlaps =
        toastBox!.x < buttonBox!.x + buttonBox!.width &&
        buttonBox!.x < toastBox!.x + toastBox!.width &&
        toastBox!.y < buttonBox!.y + buttonBox!.height &&
        buttonBox!.y < toastBox!.y + toastBox!.height;
      expect(overlaps, 'a toast covers the New offer button').toBe(false);
      await expect(page.getByRole('row').filter({ hasText: `$${price}.00` })).toContainText('open');
    }
    const offerRow = (price: string) => page.getByRole('row').filter({ hasText: `$${price}.00` });

    // Accepted through the API meanwhile: the console's accept explains the 409.
    const offers = (await (await request.get(`${v1}/offers?status=open`, { headers: auth })).json()) as {
      items: { id: string; price_cents: number }[];
    };
    const elsewhere = offers.items.find((o) => o.price_cents === 7500)!;
    expect((await request.post(`${v1}/offers/${elsewhere.id}/reject`, { headers: auth, data: { reason: 'Decided by phone' } })).status()).toBe(200);
    await offerRow('75')
      .getByRole('button', { name: /^Accept offer/ })
      .click();
    let alert = page.getByRole('alertdialog', { name: 'Accept this offer?' });
    await alert.getByRole('button', { name: 'Accept offer' }).click();
    // The 409 is explained in a sentence that stays, and the refreshed list no longer offers the offer for acceptance.
    await expect(page.getByText('Could not accept the offer: The offer is no longer open (it is rejected).')).toBeVisible();
    await expect(offerRow('75').getByRole('button', { name: /^Accept offer/ })).toHaveCount(0);

    // The vendor holds this script's synthesis until the creatives page has shown it generating (below).
    await holdVoice(request, SCRIPT);
    await offerRow('250')
      .getByRole('button', { name: /^Accept offer/ })
      .click();
    alert = page.getByRole('alertdialog', { name: 'Accept this offer?' });
    await expect(alert).toContainText('Spring sale will be read on Night Owls for $250.00');
    await alert.getByRole('button', { name: 'Accept offer' }).click();
    await expect(alert).toBeHidden();
    await expect(offerRow('250')).toContainText('accepted');
    await expect(offerRow('250').getByRole('link', { name: /View creative/ })).toBeVisible();

    await offerRow('100')
      .getByRole('button', { name: /^Reject offer/ })
      .click();
    dialog = page.getByRole('dialog', { name: 'Reject this offer?' });
    await dialog.getByLabel('Reason').fill('Too close to another sponsor');
    await dialog.getByRole('button', { name: 'Reject offer' }).click();
    await expect(dialog).toBeHidden();
    await expect(offerRow('100')).toContainText('rejected');
    await expect(offerRow('100')).toContainText('“Too close to another sponsor”');

    await page.getByLabel('Status').selectOption('accepted');
    await expect(page.getByRole('row')).toHaveCount(2); // header + the accepted offer
    await page.getByLabel('Status').selectOption('');
    await expect(offerRow('100')).toBeVisible();
    await expectNoSeriousA11yViolations(page, testInfo, 'offers');
    await screenshot(page, testInfo, 'console-offers-1280');

    // --- Creatives: generating → pending approval without a reload, and the audio plays ---------
    await offerRow('250')
      .getByRole('link', { name: /View creative/ })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: 'Creatives' })).toBeVisible();
    await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
    const status = page.locator('[data-testid^="creative-status-"]');
    await expect(status).toHaveCount(1);
    // The vendor holds its answer until the page has shown the creative generating; released, the
    // page shows it made, pending the host's approval, without a reload.
    await expect(status).toHaveText('generating');
    await releaseVoice(request, SCRIPT);
    await expect(status).toHaveText('pending approval', { timeout: 90_000 });
    const seen = await page.evaluate(() => (window as unknown as { __creativeStatuses: string[] }).__creativeStatuses);
    expect([...new Set(seen)]).toEqual(['generating', 'pending approval']);
    expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);

    // An administrator plays it to review it. Nothing is downloaded until asked: Play fetches the
    // audio (with the key, never in the URL) and plays it; Download saves the same file.
    const audioRequests: string[] = [];
    page.on('request', (req) => {
      if (/\/creatives\/[^/]+\/audio/.test(req.url())) audioRequests.push(req.url());
    });
    await expect(page.getByRole('button', { name: /^Play Audio: Spring sale on Night Owls/ })).toBeVisible();
    expect(audioRequests).toEqual([]);
    await page.getByRole('button', { name: /^Play Audio: Spring sale on Night Owls/ }).click();
    const audio = page.getByLabel(/^Audio: Spring sale on Night Owls/);
    await expect(audio).toBeVisible();
    await expect
      .poll(
        () =>
          audio.evaluate((el: HTMLAudioElement) => ({
            loaded: el.readyState >= 1 && el.duration > 0,
            blob: el.src.startsWith('blob:'),
            keyInUrl: el.src.includes('sk_'),
          })),
        { timeout: 30_000 },
      )
      .toEqual({ loaded: true, blob: true, keyInUrl: false });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: /^Download Audio: Spring sale on Night Owls/ }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^creative-crv_\w+-r1\.(mp3|wav)$/); // revision 1 of the offer's creative
    const saved = statSync((await download.path())!);
    expect(saved.size).toBeGreaterThan(1_000);
    expect(audioRequests).toHaveLength(1);
    await expectNoSeriousA11yViolations(page, testInfo, 'creatives');
    await screenshot(page, testInfo, 'console-creatives-1280');

    // --- A refused campaign transition is a sentence -------------------------------------------
    await page.goto(campaignUrl);
    await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();
    const campaign = (await (await request.get(`${v1}/campaigns/${campaignId}`, { headers: auth })).json()) as { version: number };
    expect(
      (await request.patch(`${v1}/campaigns/${campaignId}`, { headers: auth, data: { status: 'archived', version: campaign.version } })).status(),
    ).toBe(200);
    await page.getByRole('button', { name: 'Pause' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Could not change' })).toHaveText(
      'Could not change the status: A campaign cannot go from archived to paused. An archived campaign cannot change status.',
    );
    await expect(page.getByRole('heading', { level: 1, name: /Spring sale/ })).toContainText('archived');
    await expect(page.getByRole('button', { name: 'Pause' })).toHaveCount(0);

    // --- Deleting the advertiser: refused while a campaign runs, allowed once it is archived ---
    const second = await request.post(`${v1}/campaigns`, {
      headers: auth,
      data: { name: 'Summer draft', advertiser_id: advertiser.id, script: 'Hello.' },
    });
    expect(second.status()).toBe(201);
    await page.goto(`${base}/advertisers`);
    await page.getByRole('button', { name: 'Delete Acme Mattresses Inc.' }).click();
    alert = page.getByRole('alertdialog', { name: 'Delete Acme Mattresses Inc.?' });
    await expect(alert).toContainText('cannot be deleted');
    await alert.getByRole('button', { name: 'Delete advertiser' }).click();
    await expect(alert.getByRole('alert')).toContainText('This advertiser has 1 campaign(s) in draft, active or paused state.');
    await alert.getByRole('button', { name: 'Cancel' }).click();
    const draft = (await second.json()) as { id: string; version: number };
    expect(
      (await request.patch(`${v1}/campaigns/${draft.id}`, { headers: auth, data: { status: 'archived', version: draft.version } })).status(),
    ).toBe(200);
    await page.getByRole('button', { name: 'Delete Acme Mattresses Inc.' }).click();
    await alert.getByRole('button', { name: 'Delete advertiser' }).click();
    await expect(alert).toBeHidden();
    await expect(page.getByText('No advertisers yet')).toBeVisible();

    // --- 390 px: offers and creatives ------------------------------------------------------------
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${base}/offers`);
    await expect(offerRow('250')).toBeVisible();
    await expectNoSeriousA11yViolations(page, testInfo, 'offers-390');
    await screenshot(page, testInfo, 'console-offers-390');
    await page.goto(`${base}/creatives`);
    await expect(page.locator('[data-testid^="creative-status-"]')).toHaveText('pending approval');
    await expectNoSeriousA11yViolations(page, testInfo, 'creatives-390');
    await screenshot(page, testInfo, 'console-creatives-390');
  });
});
