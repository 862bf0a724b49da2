import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { ERROR_KINDS } from '../server/errors';

const SLUGS = Object.keys(ERROR_KINDS) as (keyof typeof ERROR_KINDS)[];

/** /docs with its operations rendered (they come from /v1/openapi.json after load). */
async function openDocs(page: Page, hash = '') {
  await page.goto(`/docs${hash}`);
  await expect(page.getByTestId('api-reference')).toBeVisible();
}

function operation(page: Page, name: string) {
  return page.locator('article.operation').filter({ has: page.getByRole('heading', { level: 4, name, exact: true }) });
}

test.describe('API reference at /docs', () => {
  test('shows every operation of the OpenAPI document, grouped by tag', async ({ page, request }) => {
    const doc = await (await request.get('/v1/openapi.json')).json();
    const expected: string[] = [];
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(item)) expected.push(`${method.toUpperCase()} ${path}`);
    }

    await openDocs(page);
    await expect(page.getByRole('heading', { level: 1, name: 'API reference' })).toBeVisible();
    for (const name of ['GET /me', 'GET /networks', 'POST /networks']) {
      await expect(page.getByRole('heading', { level: 4, name, exact: true })).toBeVisible();
    }
    const rendered = await page.locator('article.operation h4').allTextContents();
    expect(rendered.map((t) => t.replace(/\s+/g, ' ').trim()).sort()).toEqual(expected.sort());
    await expect(page.getByRole('heading', { level: 3, name: 'Networks', exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { level: 3, name: 'Me', exact: true })).toBeVisible();
  });

  test('describes parameters, body fields, responses and a curl example', async ({ page }) => {
    await openDocs(page);

    const create = operation(page, 'POST /networks');
    const body = create.getByRole('table', { name: /Request body fields/ });
    await expect(body.getByRole('row', { name: /name/ })).toContainText('required');
    await expect(create.getByRole('table', { name: /Parameters/ })).toContainText('Idempotency-Key');
    const responses = create.getByRole('table', { name: /Responses/ });
    for (const status of ['201', '400', '401', '409', '422', '429']) {
      await expect(responses.getByRole('rowheader', { name: status, exact: true })).toBeVisible();
    }
    await expect(responses.getByRole('link', { name: '422' })).toHaveAttribute('href', '/docs/errors/idempotency-key-reused');
    const curl = create.locator('pre');
    await expect(curl).toContainText('curl -X POST "http://');
    await expect(curl).toContainText('/v1/networks"');
    await expect(curl).toContainText('-H "Authorization: Bearer $API_KEY"');
    await expect(curl).toContainText(`-d '{"name":`);

    const list = operation(page, 'GET /networks');
    const params = list.getByRole('table', { name: /Parameters/ });
    await expect(params.getByRole('row', { name: /limit/ })).toContainText('From 1 to 200');
    await expect(params.getByRole('row', { name: /limit/ })).toContainText('Default 50');
    await expect(params.getByRole('row', { name: /cursor/ })).toBeVisible();

    const get = operation(page, 'GET /networks/{networkId}');
    await expect(get.locator('pre')).toContainText('/v1/networks/$NETWORK_ID"');
  });

  test('the copy button puts the curl example on the clipboard', async ({ page, context, baseURL }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
    await openDocs(page);
    const me = operation(page, 'GET /me');
    const button = me.getByRole('button', { name: 'Copy curl example for GET /me' });
    await button.focus();
    await page.keyboard.press('Enter');
    await expect(me.getByRole('status')).toHaveText('Copied');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(await me.locator('pre').textContent());
    expect(copied).toMatch(/^curl ".*\/v1\/me" \\\n {2}-H "Authorization: Bearer \$API_KEY"$/);
  });

  test('has the guides and an Errors section listing every error type', async ({ page }) => {
    await page.goto('/docs');
    for (const name of ['Authentication', 'Pagination', 'Idempotency', 'Optimistic locking', 'Rate limits', 'Errors', 'Operations']) {
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

  test('loads nothing from other origins (works offline)', async ({ page, baseURL }) => {
    const foreign: string[] = [];
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.protocol.startsWith('http') && url.origin !== new URL(baseURL!).origin) foreign.push(req.url());
    });
    await openDocs(page);
    await page.goto('/docs/errors/conflict');
    expect(foreign).toEqual([]);
  });

  test('a deep link to an operation scrolls to it once the reference has loaded', async ({ page }) => {
    await openDocs(page, '#op-networks-create');
    await expect(page.locator('#op-networks-create')).toBeInViewport();
  });

  test('the skip link is the first stop of the keyboard and leads to the content', async ({ page }) => {
    await page.goto('/docs');
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.locator('main')).toBeFocused();
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
  for (const path of ['/', '/docs', '/docs/errors/not-found']) {
    test(`axe finds no serious or critical violations on ${path}`, async ({ page }) => {
      // axe walks every node of the whole API reference: over a minute on 2 busy cores. A
      // correctness check, not a timed one.
      if (path === '/docs') test.setTimeout(240_000);
      if (path === '/docs') await openDocs(page);
      else await page.goto(path);
      const results = await new AxeBuilder({ page }).analyze();
      const blocking = results.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
      expect(blocking, JSON.stringify(blocking, null, 2)).toEqual([]);
    });
  }
});

test.describe('layout', () => {
  for (const width of [1280, 390]) {
    test(`fits ${width} px without sideways scrolling (screenshots)`, async ({ page }, testInfo) => {
      await page.setViewportSize({ width, height: width > 800 ? 800 : 844 });
      for (const [name, path] of [
        ['docs', '/docs'],
        ['error-not-found', '/docs/errors/not-found'],
      ] as const) {
        if (path === '/docs') await openDocs(page);
        else await page.goto(path);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${path} scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
        const file = testInfo.outputPath(`${name}-${width}.png`);
        await page.screenshot({ path: file, fullPage: true });
        await testInfo.attach(`${name}-${width}`, { path: file, contentType: 'image/png' });
      }
    });
  }
});
