import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * axe-core for a page, run inside the page itself (AxeBuilder's legacy mode). AxeBuilder's default
 * runs axe in every frame and merges what they found in a blank page of its own, carrying the
 * results across in chunks: on /docs (~34,000 elements) that took 106 s where this takes 41 s, the
 * same violations, for frames our pages do not have. A page that gains one fails here rather than
 * going half checked.
 *
 * AxeBuilder evaluates axe's source (1.3 MB) in the page twice per analysis, about as long as a
 * console page's analysis itself: a document that has it already (a view checked at several widths,
 * a client navigation) is given an empty source instead, and runs the axe it has.
 */
export async function axeOnPage(page: Page): Promise<AxeBuilder> {
  expect(await page.locator('iframe, frame').count(), 'frames on the page (axe would not look inside them)').toBe(0);
  const hasAxe = await page.evaluate(() => typeof (window as { axe?: { run?: unknown } }).axe?.run === 'function');
  return new AxeBuilder({ page, axeSource: hasAxe ? ';' : undefined }).setLegacyMode(true);
}
