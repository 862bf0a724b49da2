import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { config, loadConfig, setConfig } from '@/server/config';
import { AppError, badRequest } from '@/server/errors';
import { heldAnswers, holdAnswer, paceRefusal } from './refusal-pacing';

let saved: ReturnType<typeof config>;
beforeEach(() => {
  saved = config();
  setConfig(loadConfig({ ...process.env, REFUSAL_HOLD_MS: '1000', REFUSAL_HOLD_MAX: '2' } as NodeJS.ProcessEnv));
});
afterEach(() => setConfig(saved));

const budgetRefusal = (waitMs: number, everyMs: number, retryAfter = '1') =>
  new AppError('rate-limited', 'Rate limit exceeded.', { headers: { 'Retry-After': retryAfter }, pace: { line: 'key:a', waitMs, everyMs } });

/** How long `work` takes, in ms. */
async function timed(work: Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work;
  return performance.now() - started;
}

describe('refusal pacing', () => {
  it('holds at most REFUSAL_HOLD_MAX answers at once; past that, answers at once', async () => {
    const first = holdAnswer(50);
    const second = holdAnswer(50);
    expect(heldAnswers()).toBe(2);
    expect(await holdAnswer(50)).toBe(0);
    expect(await Promise.all([first, second])).toEqual([50, 50]);
    expect(heldAnswers()).toBe(0);
    expect(await holdAnswer(20)).toBe(20);
  });

  it('holds refusals of one bucket in line: each until its turn, one token apart, then Retry-After 0', async () => {
    const refusals = [budgetRefusal(40, 100), budgetRefusal(40, 100)];
    const [first, second] = await Promise.all(refusals.map((r) => timed(paceRefusal(r, {}))));
    expect(first).toBeGreaterThanOrEqual(35);
    expect(first).toBeLessThan(130); // its own wait: not a second, not the other's turn
    expect(second).toBeGreaterThanOrEqual(135); // behind the first: one token later
    expect(refusals.map((r) => r.extra.headers!['Retry-After'])).toEqual(['0', '0']);
  });

  it('holds a turn beyond REFUSAL_HOLD_MS for 50–100 % of it, and Retry-After says what is left of the turn', async () => {
    const refusal = budgetRefusal(2_400, 10, '3');
    const bag = { 'Retry-After': '3', 'RateLimit-Reset': '5' };
    const held = await timed(paceRefusal(refusal, {}, bag));
    expect(held).toBeGreaterThanOrEqual(490);
    expect(held).toBeLessThan(1_400);
    expect(bag['Retry-After']).toBe('2'); // 2.4 s less 0.5–1 s held
    expect(refusal.extra.headers!['Retry-After']).toBe('2');
  });

  it('holds a request once, however many of its calls (a console batch) are refused', async () => {
    const request = {};
    const bag = { 'Retry-After': '1', 'RateLimit-Reset': '3' };
    const both = timed(Promise.all([paceRefusal(budgetRefusal(1_000, 10), request, bag), paceRefusal(budgetRefusal(1_000, 10), request, bag)]));
    expect(heldAnswers()).toBe(1); // one held answer, not one per call
    expect(await both).toBeGreaterThanOrEqual(990);
    expect(bag).toEqual({ 'Retry-After': '0', 'RateLimit-Reset': '2' }); // lowered once, by the second held
  });

  it('never holds other refusals', async () => {
    const held = await timed(
      Promise.all([
        paceRefusal(badRequest('No.'), {}),
        paceRefusal(new AppError('forbidden', 'No.'), {}),
        paceRefusal(new AppError('rate-limited', 'Nothing to pace by.'), {}),
      ]),
    );
    expect(held).toBeLessThan(100);
  });
});
