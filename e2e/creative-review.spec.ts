import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';
import { createNetwork, DEEP, expectNoSeriousA11yViolations, post, screenshot, signInToConsole, v1 } from './console-helpers';

/*
 * Host-voiced means host-approved (issue 38), in a real browser: the done-when path — consent
 * requested → granted on the host's phone → offer accepted → creative synthesized (pending_approval)
 * → the host asks for changes with a new script from the emailed review link → revision 2
 * synthesized → approved by the host — and then the administrators' side: a campaign's talking
 * points and required lines typed in its form, the review queue, changes requested and an approval
 * there on the host's behalf, and the creative's revision history. The links are read from the
 * development mailbox, as e2e/voice-consent.spec.ts reads them (the e2e service has no SMTP_URL;
 * the HTTP tests read the same emails off a real SMTP server).
 */

type Email = { id: string; subject: string; link: string | null };
type Review = { reviewed_at: string; reviewed_by: 'host' | 'administrator'; comment: string | null };
type Creative = {
  id: string;
  status: string;
  revision: number;
  previous_revision_id: string | null;
  script: string;
  synthetic_voice: boolean;
  voice_consent_id: string | null;
  review: Review | null;
};

const PHONE = { width: 390, height: 844 };
const SIZES = [{ width: 1280, height: 800 }, { width: 1024, height: 768 }, PHONE];

const REQUIRED = 'Use code OWL for 20% off.';
const SCRIPT = `Night Owls is brought to you by Acme Mattresses: sleep better tonight. ${REQUIRED}`;
const TALKING_POINTS = ['Ten-year warranty', 'Free returns within 100 nights'];

/**
 * The newest link mailed to `to` whose subject passes `subject` and that is not in `seen`, from the
 * development mailbox (an email's link is read one email at a time).
 */
async function mailedLink(request: APIRequestContext, to: string, subject: (s: string) => boolean, seen: ReadonlySet<string> = new Set()) {
  let link: string | null = null;
  await expect
    .poll(
      async () => {
        const list = await v1<{ items: Email[] }>(request, 'GET', `/emails?to=${encodeURIComponent(to)}`);
        for (const mail of list.items.filter((e) => subject(e.subject))) {
          const found = (await v1<Email>(request, 'GET', `/emails/${mail.id}`)).link;
          if (found && !seen.has(found)) {
            link = found;
            return true;
          }
        }
        return false;
      },
      { timeout: 30_000, message: `no new email to ${to}` },
    )
    .toBe(true);
  return link!.replace(/^https?:\/\/[^/]+/, '');
}

const consentMail = (s: string) => s.endsWith('asks for your consent to ads in your voice');
const reviewMail = (s: string) => s.startsWith('Review the ');

/** The offer's creatives (every revision), once `ready` says they are as awaited. */
async function creativesOf(request: APIRequestContext, n: string, offerId: string, ready: (items: Creative[]) => boolean): Promise<Creative[]> {
  let items: Creative[] = [];
  await expect
    .poll(
      async () => {
        items = (await v1<{ items: Creative[] }>(request, 'GET', `/networks/${n}/creatives?offer_id=${offerId}`)).items;
        return ready(items);
      },
      { timeout: 60_000, message: `creatives of ${offerId}: ${JSON.stringify(items.map((c) => [c.revision, c.status]))}` },
    )
    .toBe(true);
  return [...items].sort((a, b) => a.revision - b.revision);
}

const revisionIs = (revision: number, status: string) => (items: Creative[]) => items.some((c) => c.revision === revision && c.status === status);

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Nothing on the page scrolls sideways. */
async function expectFits(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `page scrolls sideways at ${width}`).toBeLessThanOrEqual(width);
}

/** At 1280, 1024 and 390 px: fits, axe (not at 1024 outside test:deep), a screenshot; back to `end` after. */
async function atThreeWidths(page: Page, testInfo: TestInfo, name: string, { end = SIZES[0]!, fullPage = true } = {}) {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await expectFits(page, size.width);
    if (DEEP || size.width !== 1024) await expectNoSeriousA11yViolations(page, testInfo, `${name}-${size.width}`);
    await screenshot(page, testInfo, `${name}-${size.width}`, { fullPage });
  }
  await page.setViewportSize(end);
}

/** A network with an advertiser, an opted-in podcast hosted by Sam Rivera, and (unless `campaign: false`) an active campaign with lines. */
async function setUp(request: APIRequestContext, name: string, { campaign = true } = {}) {
  const suffix = randomUUID().slice(0, 8);
  const network = await createNetwork(request, `${name} ${suffix}`);
  const n = network.id;
  const acme = await post<{ id: string }>(request, `/networks/${n}/advertisers`, { name: 'Acme Mattresses' });
  const podcast = await post<{ id: string }>(request, `/networks/${n}/podcasts`, { name: 'Night Owls', host_name: 'Sam Rivera' });
  await post(request, `/networks/${n}/podcasts/${podcast.id}/opt-in`, {});
  const made = campaign
    ? await post<{ id: string }>(request, `/networks/${n}/campaigns`, {
        name: 'Spring sale',
        advertiser_id: acme.id,
        script: SCRIPT,
        status: 'active',
        talking_points: TALKING_POINTS,
        required_lines: [REQUIRED],
      })
    : undefined;
  return { suffix, network, n, acme, podcast, campaign: made, email: `sam-${suffix}@hosts.example` };
}

/** An offer of the campaign to the podcast, accepted: its id. */
async function acceptOffer(request: APIRequestContext, n: string, campaignId: string, podcastId: string): Promise<string> {
  const offer = await post<{ id: string }>(request, `/networks/${n}/offers`, { campaign_id: campaignId, podcast_id: podcastId });
  await post(request, `/networks/${n}/offers/${offer.id}/accept`, {});
  return offer.id;
}

test('the host grants consent on their phone, asks for changes with a new script from the emailed link, and approves revision 2', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(240_000);
  const { network, n, podcast, campaign, email } = await setUp(request, 'Moonlight Audio');

  // --- Consent requested, granted on the host's phone ------------------------------------------------
  await post(request, `/networks/${n}/podcasts/${podcast.id}/voice-consents`, { host_name: 'Sam Rivera', host_email: email, scope: 'all_campaigns' });
  await page.setViewportSize(PHONE);
  await page.goto(await mailedLink(request, email, consentMail));
  await page.getByRole('button', { name: 'Grant consent' }).click();
  await expect(page.getByTestId('consent-state')).toContainText('You granted consent on');

  // --- Offer accepted: revision 1 is synthesized under that consent and awaits approval ---------------
  const offerId = await acceptOffer(request, n, campaign!.id, podcast.id);
  const [first] = await creativesOf(request, n, offerId, revisionIs(1, 'pending_approval'));
  expect(first).toMatchObject({ revision: 1, synthetic_voice: true, previous_revision_id: null, review: null });
  expect(first!.voice_consent_id).toMatch(/^vcn_/);

  // --- The emailed review link, on the phone: nothing is decided by opening it -----------------------
  const firstLink = await mailedLink(request, email, reviewMail);
  expect(firstLink).toMatch(/^\/console\/creative-review#token=crl_/);
  await page.goto(firstLink);
  await expect(page.getByRole('heading', { level: 1, name: 'Your ad for Night Owls' })).toBeVisible();
  await expect(page.getByRole('main')).toContainText(
    `made this ad for Acme Mattresses (campaign “Spring sale”) with a synthetic copy of your voice, Sam Rivera`,
  );
  await expect(page.getByTestId('review-state')).toContainText('Waiting for your review.');
  await expect(page.getByTestId('review-script')).toHaveText(SCRIPT);
  await expect(page.getByTestId('talking-points').getByRole('listitem')).toHaveText(TALKING_POINTS);
  await expect(page.getByTestId('required-lines')).toContainText(REQUIRED);
  const approve = page.getByRole('button', { name: 'Approve' });
  expect((await approve.boundingBox())!.width, 'the buttons are full width on a phone').toBeGreaterThan(300);
  // The audio plays from the link alone.
  await page.getByRole('button', { name: 'Play Your ad for Night Owls, version 1' }).click();
  await expect(page.locator('audio')).toHaveAttribute('src', /^blob:/);
  await expectFits(page, PHONE.width);
  await expectNoSeriousA11yViolations(page, testInfo, 'creative-review-pending-390');
  await screenshot(page, testInfo, 'creative-review-pending-390');
  expect((await v1<Creative>(request, 'GET', `/networks/${n}/creatives/${first!.id}`)).status).toBe('pending_approval');

  // --- Changes with a new script: one that drops the required line is refused at the script ----------
  await page.getByRole('button', { name: 'Request changes' }).click();
  const changes = page.getByRole('region', { name: 'Request changes' });
  await changes.getByLabel('What should change').fill('Say the code slowly, and mention the warranty.');
  await changes.getByLabel('Script').fill('Night Owls is brought to you by Acme Mattresses, with a ten-year warranty.');
  await expect(changes.getByTestId('required-lines')).toContainText('Missing from the script');
  await changes.getByRole('button', { name: 'Send request' }).click();
  await expect(changes.getByLabel('Script')).toHaveAttribute('aria-invalid', 'true');
  await expect(changes.getByLabel('Script')).toHaveAccessibleDescription(new RegExp(escaped(REQUIRED)));
  await expectNoSeriousA11yViolations(page, testInfo, 'creative-review-refused-390');
  await screenshot(page, testInfo, 'creative-review-refused-390');
  expect((await v1<Creative>(request, 'GET', `/networks/${n}/creatives/${first!.id}`)).status).toBe('pending_approval');

  const newScript = `Night Owls is brought to you by Acme Mattresses, with a ten-year warranty. ${REQUIRED}`;
  await changes.getByLabel('Script').fill(newScript);
  await expect(changes.getByTestId('required-lines')).toContainText('In the script');
  await changes.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByTestId('review-state')).toContainText('You asked for changes on');
  await expect(page.getByTestId('review-state')).toContainText('Version 2 is being made');
  await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, testInfo, 'creative-review-changes-requested-390');
  await screenshot(page, testInfo, 'creative-review-changes-requested-390');

  // --- Revision 2 is synthesized from the new script, and a new link is mailed -----------------------
  const revisions = await creativesOf(request, n, offerId, revisionIs(2, 'pending_approval'));
  expect(revisions.map((c) => [c.revision, c.status])).toEqual([
    [1, 'changes_requested'],
    [2, 'pending_approval'],
  ]);
  expect(revisions[0]!.review).toMatchObject({ reviewed_by: 'host', comment: 'Say the code slowly, and mention the warranty.' });
  expect(revisions[1]).toMatchObject({ previous_revision_id: first!.id, script: newScript, review: null });

  const secondLink = await mailedLink(request, email, reviewMail, new Set([firstLink]));
  await page.goto(secondLink);
  await expect(page.getByRole('heading', { level: 2, name: 'Version 2' })).toBeVisible();
  await expect(page.getByTestId('review-script')).toHaveText(newScript);
  const versions = page.getByTestId('review-versions');
  await expect(versions.getByRole('listitem').first()).toContainText('Changes asked by you');
  await expect(versions.getByRole('listitem').first()).toContainText('Say the code slowly, and mention the warranty.');
  await expect(versions.getByRole('listitem').last()).toContainText('Version 2 (this one)');
  await atThreeWidths(page, testInfo, 'creative-review-revision-2', { end: PHONE });

  // --- Approved by the host ----------------------------------------------------------------------------
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByTestId('review-state')).toContainText('You approved this ad on');
  await expect(page.getByRole('button', { name: 'Request changes' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, testInfo, 'creative-review-approved-390');
  await screenshot(page, testInfo, 'creative-review-approved-390');
  const approved = await v1<Creative>(request, 'GET', `/networks/${n}/creatives/${revisions[1]!.id}`);
  expect(approved).toMatchObject({ status: 'approved', review: { reviewed_by: 'host', comment: null } });

  // --- The administrator's creative: synthetic voice, its consent, its review and its revisions -------
  await page.setViewportSize(SIZES[0]!);
  await signInToConsole(page, { next: `/console/n/${n}/creatives?creative=${approved.id}` });
  const sheet = page.getByRole('dialog', { name: 'Creative' });
  await expect(sheet.getByTestId('creative-sheet-status')).toHaveText('approved');
  await expect(sheet.getByTestId('creative-voice')).toContainText('Synthetic');
  await expect(sheet.getByRole('link', { name: 'Sam Rivera’s consent' })).toHaveAttribute(
    'href',
    `/console/n/${n}/podcasts/${podcast.id}/voice-consent`,
  );
  await expect(sheet.getByTestId('creative-review')).toContainText('Approved by the host');
  const history = sheet.getByTestId('creative-revisions').getByRole('listitem');
  await expect(history).toHaveCount(2);
  await expect(history.first()).toContainText('Changes requested by the host');
  await expect(history.first()).toContainText('Say the code slowly, and mention the warranty.');
  await expect(history.last()).toContainText('Revision 2 (this one)');
  await expect(history.last()).toContainText('Approved by the host');
  await atThreeWidths(page, testInfo, 'console-creative-revisions', { fullPage: false });

  // Revision 1 opens from the history, in the same sheet.
  await history.first().getByRole('link', { name: 'Revision 1' }).click();
  await expect(page).toHaveURL(new RegExp(`creative=${first!.id}`));
  await expect(sheet.getByTestId('creative-sheet-status')).toHaveText('changes requested');

  // Anyone without the link: a token that opens nothing is "not valid", as an expired or replaced one is.
  await page.setViewportSize(PHONE);
  await page.goto(`/console/creative-review#token=crl_${'A'.repeat(40)}`);
  await expect(page.getByRole('heading', { name: 'This link is not valid' })).toBeVisible();
  await expect(page.getByRole('main').getByRole('alert')).toContainText('not valid');
  await expectNoSeriousA11yViolations(page, testInfo, 'creative-review-invalid-390');
  await screenshot(page, testInfo, 'creative-review-invalid-390');
  void network;
});

test('an administrator writes a campaign’s lines, then reviews from the queue: changes requested, then approved on the host’s behalf', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(240_000);
  const { n, podcast, email } = await setUp(request, 'Review Desk', { campaign: false });

  // Consent granted by the host through their link (over HTTP: the phone is the other test's).
  await post(request, `/networks/${n}/podcasts/${podcast.id}/voice-consents`, { host_name: 'Sam Rivera', host_email: email, scope: 'all_campaigns' });
  const consentToken = decodeURIComponent((await mailedLink(request, email, consentMail)).split('#token=')[1]!);
  await post(request, '/voice-consents/current/grant', { statement_version: 1 }, consentToken);

  // --- The campaign's talking points and required lines, typed in its form --------------------------
  await signInToConsole(page, { next: `/console/n/${n}/campaigns` });
  await page.getByRole('button', { name: 'New campaign' }).first().click();
  const create = page.getByRole('dialog', { name: 'New campaign' });
  await create.getByLabel('Name').fill('Spring sale');
  await create.getByLabel('Advertiser').selectOption({ label: 'Acme Mattresses' });
  await create.getByLabel('Start as').selectOption('active');
  await create.getByLabel('Script').fill('Night Owls is brought to you by Acme Mattresses.');
  await create.getByLabel('Talking points').fill(`${TALKING_POINTS[0]}\n\n  ${TALKING_POINTS[1]}  \n`);
  await create.getByLabel('Required lines').fill(REQUIRED);
  await create.getByRole('button', { name: 'Create campaign' }).click();
  // The API refuses a script without its required line, naming it, at the script.
  await expect(create.getByLabel('Script')).toHaveAttribute('aria-invalid', 'true');
  await expect(create.getByLabel('Script')).toHaveAccessibleDescription(new RegExp(escaped(REQUIRED)));
  await screenshot(page, testInfo, 'console-campaign-required-line-refused-1280', { fullPage: false });
  await create.getByLabel('Script').fill(SCRIPT);
  await create.getByRole('button', { name: 'Create campaign' }).click();
  await expect(create).toHaveCount(0);
  // Made, the campaign opens on its page.
  await expect(page).toHaveURL(/\/campaigns\/cmp_/);
  await expect(page.getByRole('heading', { level: 1, name: /Spring sale/ })).toBeVisible();
  await expect(page.getByTestId('talking-points').getByRole('listitem')).toHaveText(TALKING_POINTS);
  await expect(page.getByTestId('required-lines')).toContainText(REQUIRED);
  await expect(page.getByTestId('required-lines')).toContainText('In the script');
  await atThreeWidths(page, testInfo, 'console-campaign-lines');
  const campaignId = /campaigns\/(cmp_[^/?#]+)/.exec(page.url())![1]!;
  const made = await v1<{ talking_points: string[]; required_lines: string[] }>(request, 'GET', `/networks/${n}/campaigns/${campaignId}`);
  expect(made).toMatchObject({ talking_points: TALKING_POINTS, required_lines: [REQUIRED] });

  // --- Offer accepted; the creative waits in the queue, reached from the navigation ------------------
  const offerId = await acceptOffer(request, n, campaignId, podcast.id);
  const [first] = await creativesOf(request, n, offerId, revisionIs(1, 'pending_approval'));
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Review queue' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Review queue' })).toBeVisible();
  await expect(page.getByTestId('review-count')).toHaveText('1 waiting for review');
  const item = page.getByTestId(`review-item-${first!.id}`);
  await expect(item.getByRole('heading', { name: 'Spring sale on Night Owls' })).toBeVisible();
  await expect(item.getByTestId('review-script')).toHaveText(SCRIPT);
  await item.getByRole('button', { name: 'Play Audio: revision 1 of Spring sale on Night Owls' }).click();
  await expect(item.locator('audio')).toHaveAttribute('src', /^blob:/);
  await atThreeWidths(page, testInfo, 'console-review-queue');

  // --- Changes requested from the queue: a script without the required line is refused at its field --
  await item.getByRole('button', { name: 'Request changes to revision 1 of Spring sale on Night Owls' }).click();
  const dialog = page.getByRole('dialog', { name: 'Request changes to revision 1' });
  await expect(dialog.getByTestId('talking-points').getByRole('listitem')).toHaveText(TALKING_POINTS);
  await dialog.getByLabel('What should change').fill('Shorter, please: the host asked by phone.');
  await dialog.getByLabel('Script').fill('Acme Mattresses: sleep better tonight.');
  await expect(dialog.getByTestId('required-lines')).toContainText('Missing from the script');
  await dialog.getByRole('button', { name: 'Request changes' }).click();
  await expect(dialog.getByLabel('Script')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByLabel('Script')).toHaveAccessibleDescription(new RegExp(escaped(REQUIRED)));
  await atThreeWidths(page, testInfo, 'console-review-request-changes-refused', { fullPage: false });
  const shorter = `Acme Mattresses: sleep better tonight. ${REQUIRED}`;
  await dialog.getByLabel('Script').fill(shorter);
  await dialog.getByRole('button', { name: 'Request changes' }).click();
  await expect(dialog).toHaveCount(0);

  // Revision 2 comes to the queue with what was asked, in place of revision 1.
  const revisions = await creativesOf(request, n, offerId, revisionIs(2, 'pending_approval'));
  expect(revisions[0]).toMatchObject({
    status: 'changes_requested',
    review: { reviewed_by: 'administrator', comment: 'Shorter, please: the host asked by phone.' },
  });
  const second = revisions[1]!;
  expect(second).toMatchObject({ script: shorter, previous_revision_id: first!.id });
  const next = page.getByTestId(`review-item-${second.id}`);
  await expect(next).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId(`review-item-${first!.id}`)).toHaveCount(0);
  await expect(next).toContainText('Revision 2');
  await expect(next).toContainText('Changes asked by an administrator, on the host’s behalf');
  await expect(next).toContainText('Shorter, please: the host asked by phone.');

  // --- Approved on the host's behalf ------------------------------------------------------------------
  await next.getByRole('button', { name: 'Approve revision 2 of Spring sale on Night Owls' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Approve revision 2?' });
  await expect(confirm).toContainText('on the host’s behalf');
  await confirm.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Nothing to review')).toBeVisible();
  await atThreeWidths(page, testInfo, 'console-review-queue-empty');
  expect(await v1<Creative>(request, 'GET', `/networks/${n}/creatives/${second.id}`)).toMatchObject({
    status: 'approved',
    review: { reviewed_by: 'administrator' },
  });

  // The creatives list and its sheet say who approved, and the history both steps.
  await page.goto(`/console/n/${n}/creatives`);
  await expect(page.getByTestId(`creative-status-${second.id}`)).toHaveText('approved');
  await expect(page.getByTestId(`creative-status-${first!.id}`)).toHaveText('changes requested');
  await page.getByRole('row').filter({ hasText: 'Revision 2' }).getByRole('cell').first().click();
  const sheet = page.getByRole('dialog', { name: 'Creative' });
  await expect(sheet.getByTestId('creative-review')).toContainText('Approved by an administrator, on the host’s behalf');
  await expect(sheet.getByTestId('creative-revisions').getByRole('listitem').first()).toContainText('Changes requested by an administrator');
  await atThreeWidths(page, testInfo, 'console-creatives-reviewed');
});
