import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { expect, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';
import { axeOnPage } from './axe';

/**
 * `npm run test:deep` (E2E_DEEP=1): the matrices `npm test` samples run whole — axe at every
 * width a spec checks, not only at the two layouts' ends (1280 and 390 px), and the @deep tests.
 */
export const DEEP = process.env.E2E_DEEP === '1';

/** The super_user token the e2e server was started with (playwright.config.ts). */
export function e2eToken(): string {
  const token = process.env.E2E_TOKEN;
  if (!token) throw new Error('E2E_TOKEN is not set: run these tests with `npx playwright test` (playwright.config.ts sets it).');
  return token;
}

/**
 * Sign in to the console through its sign-in page, with `token` (the e2e super_user's unless given).
 * With `next`, as a link into the console does in a tab without a key (`/console/sign-in?next=…`,
 * require-session.tsx): resolves once the console is on `next`, with no second page load. Without,
 * once the page after sign-in is showing.
 */
export async function signInToConsole(page: Page, { token = e2eToken(), next }: { token?: string; next?: string } = {}): Promise<void> {
  await page.goto(next ? `/console/sign-in?next=${encodeURIComponent(next)}` : '/console/sign-in');
  await page.getByLabel('API key').fill(token);
  await page.getByRole('button', { name: 'Sign in with API key' }).click();
  if (next) await expect(page).toHaveURL(next);
  else await expect(page).not.toHaveURL(/\/console\/sign-in/);
}

/** A /v1 call that must succeed (the answer is in the failure message if not), with the e2e super_user token or `token`: its JSON. */
export async function v1<T>(
  request: APIRequestContext,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  data?: unknown,
  token: string = e2eToken(),
): Promise<T> {
  const response = await request.fetch(`/v1${path}`, { method, headers: { Authorization: `Bearer ${token}` }, data });
  expect(response.status(), `${method} ${path}: ${await response.text()}`).toBeLessThan(300);
  return (await response.json()) as T;
}

/** `v1(request, 'POST', …)`: what most specs make their data with. */
export const post = <T>(request: APIRequestContext, path: string, data: unknown, token?: string) => v1<T>(request, 'POST', path, data, token);

/** A webhook receiver on loopback that answers every delivery 200 (after `delayMs`). */
export async function startOkReceiver(delayMs = 0): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'), delayMs));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Create a network through /v1 with the e2e super_user token. */
export async function createNetwork(request: APIRequestContext, name: string): Promise<{ id: string; name: string }> {
  const response = await request.post('/v1/networks', {
    headers: { Authorization: `Bearer ${e2eToken()}` },
    data: { name },
  });
  expect(response.status()).toBe(201);
  return response.json();
}

/**
 * axe-core on the current page: no serious or critical violations (the report is attached to the test).
 * Text measured mid-fade has partial opacity and fails colour contrast that it meets at rest, so the
 * check runs as for a user who asked for reduced motion: a toast whose time runs out while axe works
 * (sonner honours the preference) goes at once instead of fading for 400 ms, which a CI run caught
 * (`div[data-title=""]`, a toast's title, on campaigns). It still waits for animations that were
 * running (dialogs opening) to end, and for the document's title, which a client navigation replaces.
 */
export async function expectNoSeriousA11yViolations(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  try {
    await expect
      .poll(
        () =>
          page.evaluate(
            () => document.getAnimations().filter((a) => a.playState === 'running' && Number.isFinite(a.effect?.getComputedTiming().endTime)).length,
          ),
        {
          message: `animations on ${name} never settled`,
        },
      )
      .toBe(0);
    // A client navigation (a filter written to the URL) replaces the page's metadata: for a moment
    // there is no <title>. Wait for it, as for the animations; a page that never gets one still fails.
    await expect.poll(() => page.title(), { message: `${name} never got a document title` }).not.toBe('');
    const axe = await axeOnPage(page);
    // Only the violations are looked at: of the rest (passes, incomplete) axe keeps one node per rule.
    const results = await axe
      .options({ resultTypes: ['violations'] })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    await testInfo.attach(`axe-${name}.json`, { body: JSON.stringify(results.violations, null, 2), contentType: 'application/json' });
    expect(
      serious.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      `axe violations on ${name}`,
    ).toEqual([]);
  } finally {
    await page.emulateMedia({ reducedMotion: null });
  }
}

/** The shots README.md embeds, by the name a spec gives them → their file under docs/screenshots/. */
const README_SHOTS: Record<string, string> = {
  'console-overview-1280': 'overview.png',
  'console-webhook-detail-delivery-1280': 'webhook-delivery.png',
  'console-members-1280': 'members.png',
  'console-creatives-1280': 'creatives.png',
};

/** The views (a shot's name without its width) each running test has shot: `npm test` shoots one width of each. */
const shotViews = new WeakMap<TestInfo, Set<string>>();

/**
 * A full-page screenshot under test-results/. With README_SCREENSHOTS=1 (`npm run screenshots`)
 * the shots README.md embeds are written to docs/screenshots/ as well. `fullPage: false` shoots the
 * window only: what a dialog looks like (in a full-page shot of a scrolled page it floats mid-page).
 *
 * The matrix — one view at every width a spec checks — is `npm run test:deep`'s (DEEP): `npm test`
 * shoots a view (`<view>-<width>`) once per test, at the first width it comes to, and skips its
 * other widths' shots; the checks a spec makes at every width (layout, overflow) run in both.
 */
export async function screenshot(page: Page, testInfo: TestInfo, name: string, { fullPage = true } = {}): Promise<void> {
  const readme = README_SHOTS[name];
  const view = name.replace(/-\d+$/, '');
  const views = shotViews.get(testInfo) ?? new Set<string>();
  shotViews.set(testInfo, views);
  const again = views.has(view);
  views.add(view);
  if (again && !DEEP && !(process.env.README_SCREENSHOTS === '1' && readme)) return;
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage });
  // What a reader's window shows: a full-page shot draws a scrolled page's fixed sidebar and drawer mid-page.
  if (process.env.README_SCREENSHOTS === '1' && readme)
    await page.screenshot({ path: fileURLToPath(new URL(`../docs/screenshots/${readme}`, import.meta.url)) });
}

const voiceVendor = (what: 'hold' | 'release') => `http://127.0.0.1:${process.env.E2E_VOICE_PORT}/__${what}`;

/**
 * Has the fake voice vendor (e2e/serve.ts) hold every synthesis whose text contains `text` until
 * `releaseVoice(request, text)`, or 30 s: a spec that must see a creative generating holds its own
 * script, and everything else is answered at once.
 */
export async function holdVoice(request: APIRequestContext, text: string): Promise<void> {
  expect((await request.post(voiceVendor('hold'), { data: text })).ok()).toBe(true);
}

/**
 * Answers the held syntheses of `text` now and ends the hold: call it once the page has shown what
 * the wait was for. Waits for at least one to be held (the service may not have called the vendor
 * yet), at most `timeoutMs`. Finding none is not a failure: on a slow machine the hold may have
 * timed out while the page was loading; the spec's next assertion (the creative is ready) is what
 * proves the synthesis happened. Returns how many it released.
 */
export async function releaseVoice(request: APIRequestContext, text: string, timeoutMs = 10_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const released = Number(await (await request.post(voiceVendor('release'), { data: text })).text());
    if (released > 0 || Date.now() > deadline) return released;
    // The release ended the hold: hold again before looking once more.
    await holdVoice(request, text);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface Email {
  id: string;
  subject: string;
  link: string | null;
}

/** The newest sign-in link mailed to `to`, read from the development mailbox (the outbox) with the operator's key. */
export async function signInLinkFor(request: APIRequestContext, to: string, after = 0): Promise<string> {
  let link: string | null = null;
  await expect
    .poll(
      async () => {
        const list = await v1<{ items: Email[] }>(request, 'GET', `/emails?to=${encodeURIComponent(to)}`);
        const links = list.items.filter((e) => e.subject.startsWith('Your sign-in link'));
        if (links.length <= after) return false;
        link = (await v1<Email>(request, 'GET', `/emails/${links[0]!.id}`)).link;
        return link !== null;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  return link!;
}

/**
 * The podcast host's voice consent for every campaign, asked and granted over /v1 as a test
 * network allows (docs/voice-consent.md): the request's answer carries the link's token once, and
 * the host grants through the link on the statement it reads. Without one, an accepted offer's
 * creative awaits consent and no audio is made. The page the host grants on is
 * e2e/voice-consent.spec.ts's; a spec that only needs creatives made uses this.
 */
export async function grantVoiceConsent(request: APIRequestContext, networkId: string, podcastId: string, hostName = 'Sam'): Promise<string> {
  const asked = await post<{ id: string; token?: string }>(request, `/networks/${networkId}/podcasts/${podcastId}/voice-consents`, {
    host_name: hostName,
    host_email: `host-${podcastId.toLowerCase()}@example.test`,
    scope: 'all_campaigns',
  });
  expect(asked.token, 'a test network answers the link token once').toMatch(/^vcl_/);
  const link = await v1<{ statement: { version: number } }>(request, 'GET', '/voice-consents/current', undefined, asked.token);
  const granted = await post<{ status: string }>(
    request,
    '/voice-consents/current/grant',
    { statement_version: link.statement.version },
    asked.token,
  );
  expect(granted.status).toBe('granted');
  return asked.id;
}
