/**
 * Which Chromium the browser tests drive (e2e/browser.ts), and what a machine
 * without one is told: one line naming the install commands, and a non-zero exit
 * from `npm test` before it runs anything.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { chooseChromium } from '@/e2e/browser';
import { ROOT } from './support/server-process';

const none = { debian: '/nonexistent/chromium', playwright: '/nonexistent/chrome' };

describe('the browser of the e2e run', () => {
  it('takes E2E_CHROMIUM, else Debian’s, else Playwright’s own', () => {
    expect(chooseChromium({ E2E_CHROMIUM: process.execPath }, none)).toEqual({ executablePath: process.execPath, from: 'E2E_CHROMIUM' });
    expect(chooseChromium({}, { ...none, debian: process.execPath })).toEqual({ executablePath: process.execPath, from: process.execPath });
    expect(chooseChromium({}, { ...none, playwright: process.execPath })).toEqual({ executablePath: undefined, from: "Playwright's own Chromium" });
  });

  it('with none, says in one line how to install one', () => {
    const choice = chooseChromium({}, none);
    expect(choice).toEqual({ missing: expect.stringContaining('npx playwright install chromium') });
    expect('missing' in choice && choice.missing).not.toContain('\n');
  });

  it('npm test stops before its first step, in one line, when the browser it is given does not exist', () => {
    const run = spawnSync('npm', ['test', '--', 'playwright'], {
      cwd: ROOT,
      env: { ...process.env, E2E_CHROMIUM: '/nonexistent/chromium' },
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr.split('\n').filter((line) => line.includes('/nonexistent/chromium'))).toEqual([
      'E2E_CHROMIUM=/nonexistent/chromium does not exist.',
    ]);
    expect(run.stdout).not.toContain('▶');
  });
});
