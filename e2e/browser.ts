/**
 * Which Chromium the browser tests drive: E2E_CHROMIUM, else Debian's
 * /usr/bin/chromium, else the one `npx playwright install chromium` put in
 * Playwright's cache. With none, the run stops at once with one line that says
 * how to get one (playwright.config.ts, and `npm test` before its first step).
 */
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

export type ChromiumChoice = { executablePath: string | undefined; from: string } | { missing: string };

export function chooseChromium(
  env: Record<string, string | undefined> = process.env,
  places = { debian: '/usr/bin/chromium', playwright: chromium.executablePath() },
): ChromiumChoice {
  const given = env.E2E_CHROMIUM;
  if (given) {
    return existsSync(given) ? { executablePath: given, from: 'E2E_CHROMIUM' } : { missing: `E2E_CHROMIUM=${given} does not exist.` };
  }
  if (existsSync(places.debian)) return { executablePath: places.debian, from: places.debian };
  // undefined: Playwright launches its own build.
  if (existsSync(places.playwright)) return { executablePath: undefined, from: "Playwright's own Chromium" };
  return {
    missing:
      'No Chromium for the browser tests: install one with `npx playwright install chromium` ' +
      '(or `apt-get install chromium` on Debian), or set E2E_CHROMIUM to a Chromium binary.',
  };
}
