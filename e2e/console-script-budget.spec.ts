import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { createNetwork, e2eToken } from './console-helpers';

/*
 * What each console page makes a browser download and run on its first load, cold cache (issue 35:
 * the overview's blocking time was one script chunk dominating). Script is most of a page's
 * blocking time on a phone (docs/PERFORMANCE.md, "Console (Lighthouse)"), so its size has a
 * budget per page: a change that pulls a heavy module into a first load (a chart, the form
 * libraries, the search palette) fails here instead of in a Lighthouse run nobody makes.
 * Bytes are the scripts' decoded size, as the browser parses them.
 */

/** Budgets in KiB of decoded script: the measured size (2026-11-28) and about 10 % of room. */
const BUDGET_KIB: Record<string, number> = {
  'sign-in': 960, // 876: the sign-in form brings zod and react-hook-form
  overview: 750, // 678: no form code, no chart without deliveries
  offers: 1_140, // 1,034
  campaigns: 1_140, // 1,030
  events: 1_080, // 979
  'audit-log': 1_080, // 980
  'api-keys': 1_140, // 1,037
  webhooks: 1_140, // 1,028
  settings: 1_060, // 968 (2026-11-29): the settings form brings zod and react-hook-form
};

test('every console page loads within its script budget, without the palette or the charts it does not show', async ({ browser, request }) => {
  test.setTimeout(180_000);
  const network = await createNetwork(request, `Budget ${randomUUID().slice(0, 8)}`);
  const measured: Record<string, number> = {};
  for (const page of Object.keys(BUDGET_KIB)) {
    const context = await browser.newContext();
    const tab = await context.newPage();
    const scripts: Array<{ url: string; bytes: number; palette: boolean; chart: boolean }> = [];
    tab.on('response', async (response) => {
      if (response.request().resourceType() !== 'script') return;
      const body = await response.body().catch(() => Buffer.alloc(0));
      // cmdk's and recharts' own markers survive minification.
      scripts.push({ url: response.url(), bytes: body.length, palette: body.includes('cmdk-input'), chart: body.includes('recharts-surface') });
    });
    if (page !== 'sign-in') await tab.addInitScript((token) => sessionStorage.setItem('ans.console.apiKey', token), e2eToken());
    await tab.goto(page === 'sign-in' ? '/console/sign-in' : `/console/n/${network.id}${page === 'overview' ? '' : `/${page}`}`);
    await expect(tab.getByRole('heading', { level: 1 })).toBeVisible();
    await tab.waitForLoadState('networkidle');
    measured[page] = Math.round(scripts.reduce((sum, s) => sum + s.bytes, 0) / 1024);
    expect(
      scripts.filter((s) => s.palette).map((s) => s.url),
      `${page}: the search palette loads on first use only`,
    ).toEqual([]);
    expect(
      scripts.filter((s) => s.chart).map((s) => s.url),
      `${page}: the chart library loads only where a chart is drawn`,
    ).toEqual([]);
    await context.close();
  }
  console.log(`console first-load script, KiB: ${JSON.stringify(measured)}`);
  for (const [page, kib] of Object.entries(measured))
    expect(kib, `${page}: ${kib} KiB of script, budget ${BUDGET_KIB[page]} KiB`).toBeLessThanOrEqual(BUDGET_KIB[page]!);
});
