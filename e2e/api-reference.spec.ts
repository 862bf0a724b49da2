import { expect, test, type Page } from '@playwright/test';
import { ERROR_KINDS } from '@/server/errors';
import { axeOnPage } from './axe';
import { DEEP } from './console-helpers';

const SLUGS = Object.keys(ERROR_KINDS) as (keyof typeof ERROR_KINDS)[];

/**
 * /docs with the reference loaded: Scalar mounts when the reader comes near the operations (or
 * follows a link into them) and renders them from /v1/openapi.json. On a page where it has loaded,
 * another #tag/… hash is a link within the page: Scalar scrolls to that operation and renders it.
 */
async function openDocs(page: Page, hash = '') {
  await page.goto(`/docs${hash}`);
  await expect(page.getByTestId('api-reference')).toBeVisible();
  if (!hash.startsWith('#tag/')) await page.locator('#operations').scrollIntoViewIfNeeded();
  // Loading Scalar's code and rendering the document took over 15 s (the default) on 2 cores under
  // the browser suite's load (2026-11-27); the time is measured by Lighthouse (docs/PERFORMANCE.md), not here.
  await expect(page.locator('.api-reference').getByRole('heading', { level: 1, name: 'Ad Network Service API' })).toBeVisible({ timeout: 60_000 });
}

/**
 * Scalar renders operations a batch at a time, those within 1,200 px of the window: scroll to each
 * one still waiting until none is left, in a window 6,000 px tall for the while (a third as many
 * batches; 40–60 s instead of 90–145 s on 2 busy cores). It still takes long, so a test that walks
 * them gets 6 minutes (axe over all of it, more: see the accessibility test): what it checks is
 * correctness, not time. On a page where they are rendered, it returns at once.
 */
async function renderEveryOperation(page: Page) {
  test.setTimeout(Math.max(test.info().timeout, 360_000));
  const size = page.viewportSize()!;
  await page.setViewportSize({ width: size.width, height: 6_000 });
  await page.waitForFunction(
    () => {
      const placeholder = document.querySelector('.api-reference [data-placeholder="true"]');
      placeholder?.scrollIntoView();
      return placeholder === null;
    },
    undefined,
    { polling: 20 },
  );
  await page.setViewportSize(size);
}

/** An operation of the reference by its tag and operationId (its anchor is #tag/<tag>/<operationId>). */
function operation(page: Page, tag: string, operationId: string) {
  return page.locator(`.api-reference [id$="/tag/${tag}/${operationId}"]`);
}

const tagSlug = (tag: string) => tag.toLowerCase().replace(/\s+/g, '-');

/** The widths at each end of the layouts: a laptop and a phone. */
const LAYOUT_WIDTHS = [1280, 390];
const viewport = (width: number) => ({ width, height: width > 800 ? 800 : 844 });

/** The page scrolls nothing sideways at `width`; its screenshot is attached to the test. */
async function expectToFit(page: Page, name: string, width: number, { fullPage = true } = {}) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${name} scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
  const file = test.info().outputPath(`${name}-${width}.png`);
  await page.screenshot({ path: file, fullPage });
  await test.info().attach(`${name}-${width}`, { path: file, contentType: 'image/png' });
}

/**
 * Tests that start from a fresh /docs, each on a page of its own: the search button is what mounts
 * the reference there, and the guides are checked without it — with the reference mounted, every
 * role query walks its DOM (the guides' checks took 3 s on a fresh page, 83 s with every operation
 * rendered).
 */
test.describe('API reference at /docs', () => {
  test('search finds an operation and goes to it', async ({ page }) => {
    // From the top of the page: the button brings the reference and opens its search.
    await page.goto('/docs');
    await page.getByRole('button', { name: 'Search operations and models' }).click();
    const query = page.getByRole('combobox', { name: 'Enter search query' });
    // The click loads the reference's bundle first: on a loaded 2-core machine that alone took 15 s.
    await expect(query).toBeFocused({ timeout: 45_000 });
    await page.keyboard.type('accept an offer');
    const hit = page.getByRole('option', { name: /Accept an offer/ }).first();
    await expect(hit).toBeVisible();
    await hit.click();
    await expect(page).toHaveURL(/#tag\/offers\/offers-accept$/);
    await expect(operation(page, 'offers', 'offers-accept').getByRole('heading', { name: 'Accept an offer' })).toBeInViewport();
  });

  test('the skip link is the first stop of the keyboard and leads to the content', async ({ page }) => {
    await page.goto('/docs');
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.locator('main#main')).toBeFocused();
  });

  test('has the guides and an Errors section listing every error type', async ({ page }) => {
    await page.goto('/docs');
    for (const name of [
      'Authentication',
      'Pagination',
      'Idempotency',
      'Optimistic locking',
      'Rate limits',
      'Errors',
      'Webhook events',
      'Operations',
    ]) {
      await expect(page.getByRole('heading', { level: 2, name, exact: true })).toBeVisible();
    }
    const table = page.getByRole('table', { name: 'Error types' });
    await expect(table.getByRole('row')).toHaveCount(SLUGS.length + 1);
    for (const slug of SLUGS) {
      const row = page.locator(`#error-${slug}`);
      await expect(row).toContainText(String(ERROR_KINDS[slug].status));
      await expect(row).toContainText(ERROR_KINDS[slug].title);
      await expect(row.getByRole('link', { name: slug })).toHaveAttribute('href', `/docs/errors/${slug}`);
    }
  });

  test('the Webhook events section shows every type GET /v1/event-types serves, with its fields, schema and example', async ({ page, request }) => {
    const catalog = await request.get('/v1/event-types', { headers: { Authorization: `Bearer ${process.env.E2E_TOKEN}` } });
    expect(catalog.status()).toBe(200);
    const items: { type: string; description: string; data_schema: { properties: Record<string, unknown> }; example: unknown }[] = (
      await catalog.json()
    ).items;
    expect(items.length).toBeGreaterThan(0);

    await page.goto('/docs');
    await page.getByRole('navigation', { name: 'On this page' }).getByRole('link', { name: 'Webhook events' }).click();
    await expect(page).toHaveURL(/#webhook-events$/);
    const section = page.getByRole('region', { name: 'Webhook events', exact: true });
    await expect(section.getByRole('heading', { level: 2, name: 'Webhook events' })).toBeInViewport();
    await expect(section.getByRole('heading', { level: 3 })).toHaveText(items.map((item) => item.type));

    for (const item of items) {
      const event = section.getByRole('region', { name: item.type, exact: true });
      await expect(event).toContainText(item.description);
      const fields = event.getByRole('table', { name: 'Fields of data' });
      await expect(fields.getByRole('rowheader')).toHaveText(Object.keys(item.data_schema.properties));
      // The raw schema is folded away, and is the one the API serves.
      const schema = event.locator('pre code').filter({ hasText: '"properties"' });
      await expect(schema).toBeHidden();
      await event.getByText('JSON Schema of data').click();
      await expect(schema).toBeVisible();
      expect(JSON.parse((await schema.textContent())!)).toEqual(item.data_schema);
      // The example envelope, with a copy button.
      const example = event.locator('pre code').filter({ hasText: '"occurred_at"' });
      await expect(example).toBeVisible();
      expect(JSON.parse((await example.textContent())!)).toEqual(item.example);
      await expect(event.getByRole('button', { name: `Copy ${item.type} example envelope` })).toBeVisible();
    }
  });
});

/**
 * One page, opened on a deep link, serves the tests that read the loaded reference, in order: each
 * of them loading it anew (15–35 s of a busy 2-core machine's time for Scalar's code and the
 * document) was most of this file's time. They go from operation to operation as a reader's link
 * within the page does (`openDocs` with another #tag/… hash), then render every operation. The
 * page counts every request to another origin from its first one.
 */
test.describe('API reference at /docs, loaded once', () => {
  test.describe.configure({ mode: 'serial' });
  let page: Page;
  const foreign: string[] = [];

  test.beforeAll(async ({ browser, baseURL }) => {
    page = await browser.newPage({ baseURL });
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.protocol.startsWith('http') && url.origin !== new URL(baseURL!).origin) foreign.push(req.url());
    });
    await openDocs(page, '#tag/networks/networks-create');
  });

  test.afterAll(async () => {
    await page?.close();
  });

  test('a deep link to an operation scrolls to it once the reference has loaded', async () => {
    await expect(operation(page, 'networks', 'networks-create').getByRole('heading', { name: 'Create a network (super_user)' })).toBeInViewport();
  });

  test('describes parameters, body fields, responses with examples, and a curl example', async () => {
    await openDocs(page, '#tag/networks/networks-create');
    const create = operation(page, 'networks', 'networks-create');
    await expect(create.getByRole('heading', { name: 'Create a network (super_user)' })).toBeVisible();
    await expect(create).toContainText('Idempotency-Key');
    await expect(create.getByText('name', { exact: true }).first()).toBeVisible();
    await expect(create).toContainText('required');
    for (const status of ['201', '400', '401', '409', '422', '429']) {
      await expect(create.getByText(status, { exact: true }).first()).toBeVisible();
    }
    // Each error response names its type and links to its page.
    await expect(create.getByRole('link', { name: 'Idempotency key reused' })).toHaveAttribute('href', /\/docs\/errors\/idempotency-key-reused$/);
    // An example of the 201 body, from the document's examples.
    await expect(create).toContainText('"id": "net_01jd8x6v2c9q7r5t3w1y0zabcd"');
    const curl = create.locator('pre').filter({ hasText: 'curl' });
    await expect(curl).toContainText('curl http://');
    await expect(curl).toContainText('/v1/networks');
    await expect(curl).toContainText('--request POST');
    await expect(curl).toContainText("--header 'Authorization: Bearer");
    await expect(curl).toContainText('"name":');

    await openDocs(page, '#tag/networks/networks-list');
    const list = operation(page, 'networks', 'networks-list');
    await expect(list).toContainText('limit');
    await expect(list).toContainText(/min:\s*1/);
    await expect(list).toContainText(/max:\s*200/);
    await expect(list).toContainText('Default');
    await expect(list.locator('pre').filter({ hasText: 'curl' })).toContainText('/v1/networks?limit=50');
    await expect(list).toContainText('cursor');
  });

  test('the copy button puts the curl example on the clipboard', async ({ baseURL }) => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
    await openDocs(page, '#tag/me/me-get');
    const me = operation(page, 'me', 'me-get');
    const example = me.locator('pre').filter({ hasText: 'curl' });
    await expect(example).toBeVisible();
    await example.hover();
    await me.getByRole('button', { name: /cURL/ }).click();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toMatch(/^curl http:\/\/.*\/v1\/me \\\n {2}--header 'Authorization: Bearer /);
  });

  test('lists the event types a webhook subscribes to', async ({ request }) => {
    const doc = await (await request.get('/v1/openapi.json')).json();
    const events: string[] = doc.components.schemas.WebhookEventType.enum;
    expect(events).toContain('offer.accepted');
    await openDocs(page, '#tag/webhooks/webhooks-create');
    const create = operation(page, 'webhooks', 'webhooks-create');
    await expect(create.getByRole('heading', { name: 'Create a webhook subscription' })).toBeVisible();
    await create.getByRole('button', { name: 'events', exact: true }).click();
    for (const event of events) await expect(create.getByText(event, { exact: true }).first()).toBeVisible();
    await expect(create).toContainText('A campaign offer is accepted.');
  });

  test('fits 1280 and 390 px without sideways scrolling (screenshots)', async () => {
    for (const width of LAYOUT_WIDTHS) {
      // The window is narrowed, as a reader narrows it, rather than the reference loaded again.
      await page.setViewportSize(viewport(width));
      await page.locator('#operations').scrollIntoViewIfNeeded();
      // The whole of /docs is tens of thousands of pixels tall: its full-page shot is test:deep's.
      await expectToFit(page, 'docs', width, { fullPage: DEEP });
    }
    await page.setViewportSize(viewport(1280));
  });

  test('shows every operation of the OpenAPI document, grouped by tag', async ({ request }) => {
    const doc = await (await request.get('/v1/openapi.json')).json();
    const expected: string[] = [];
    for (const item of Object.values(doc.paths as Record<string, Record<string, { operationId: string; tags: string[] }>>)) {
      for (const op of Object.values(item)) expected.push(`${tagSlug(op.tags[0]!)}/${op.operationId}`);
    }

    await renderEveryOperation(page);
    await expect(page.getByRole('heading', { level: 1, name: 'API reference' })).toBeVisible();
    const rendered = await page.evaluate(() =>
      [...document.querySelectorAll('.api-reference [id*="/tag/"]')]
        .map((e) => e.id.split('/'))
        .filter((id) => id.length === 4 && !id[3]!.includes('.'))
        .map((id) => `${id[2]}/${id[3]}`),
    );
    expect([...new Set(rendered)].sort()).toEqual(expected.sort());
    const reference = page.locator('.api-reference');
    for (const tag of ['Me', 'Networks', 'Api keys', 'Webhooks']) {
      await expect(reference.getByRole('heading', { level: 2, name: tag, exact: true })).toBeVisible();
    }
    const me = operation(page, 'me', 'me-get');
    await expect(me).toContainText(/\bget\b/i);
    await expect(me).toContainText('/me');
  });

  test('axe finds no serious or critical violations on /docs', { tag: '@deep' }, async () => {
    // axe walks every node of the whole reference: ~34,000 elements, 41 s alone on 2 cores
    // (e2e/axe.ts) and more beside the other Playwright worker, so the test gets 8 minutes, and
    // runs in `npm run test:deep` (the guides and error pages are checked in every run).
    test.setTimeout(480_000);
    await renderEveryOperation(page);
    await expectNoBlockingViolations(page);
  });

  test('loads nothing from other origins (works offline)', async () => {
    await page.goto('/docs/errors/conflict');
    expect(foreign).toEqual([]);
  });
});

test.describe('error type pages', () => {
  test('every error type has a page', async ({ page }) => {
    for (const slug of SLUGS) {
      const response = await page.goto(`/docs/errors/${slug}`);
      expect(response?.status(), slug).toBe(200);
      const h1 = page.getByRole('heading', { level: 1 });
      await expect(h1).toContainText(String(ERROR_KINDS[slug].status));
      await expect(h1).toContainText(ERROR_KINDS[slug].title);
      await expect(page.getByRole('heading', { level: 2, name: 'What to do' })).toBeVisible();
    }
  });

  test('/docs/errors/not-found explains the error', async ({ page }) => {
    await page.goto('/docs/errors/not-found');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('404 Not found');
    await expect(page.getByRole('main')).toContainText('does not exist');
    await page.getByRole('link', { name: 'All error types' }).click();
    await expect(page).toHaveURL(/\/docs#error-not-found$/);
  });

  test('an unknown error type is a 404', async ({ page }) => {
    const response = await page.goto('/docs/errors/no-such-error');
    expect(response?.status()).toBe(404);
  });

  test('the type URI of a real error body opens its page', async ({ page, request }) => {
    const problem = await (await request.get('/v1/me')).json();
    const response = await page.goto(new URL(problem.type).pathname);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('401 Unauthorized');
  });
});

test.describe('accessibility', () => {
  for (const path of ['/', '/docs/errors/not-found']) {
    test(`axe finds no serious or critical violations on ${path}`, async ({ page }) => {
      await page.goto(path);
      await expectNoBlockingViolations(page);
    });
  }
});

/** axe's serious and critical violations, in full; of the rest (passes, incomplete) one node per rule: about a fifth of axe's time on /docs. */
async function expectNoBlockingViolations(page: Page) {
  const results = await (await axeOnPage(page)).options({ resultTypes: ['violations'] }).analyze();
  const blocking = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  expect(blocking, JSON.stringify(blocking, null, 2)).toEqual([]);
}

test.describe('layout', () => {
  for (const width of LAYOUT_WIDTHS) {
    test(`an error page fits ${width} px without sideways scrolling (screenshot)`, async ({ page }) => {
      await page.setViewportSize(viewport(width));
      await page.goto('/docs/errors/not-found');
      await expectToFit(page, 'error-not-found', width);
    });
  }
});
