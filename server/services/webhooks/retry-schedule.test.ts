import { describe, expect, it } from 'vitest';
import { loadConfig } from '@/server/config';
import { DEFAULT_SCHEDULE_SECONDS, nextRetryDelayMs } from './retry-schedule';

describe('webhook retry schedule', () => {
  it('retries immediately, after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then stops', () => {
    const schedule = DEFAULT_SCHEDULE_SECONDS;
    expect(schedule).toEqual([0, 5, 300, 1800, 7200, 18000, 36000, 36000]);
    expect(nextRetryDelayMs(1, undefined, schedule)).toBe(0);
    const second = nextRetryDelayMs(2, undefined, schedule)!;
    expect(second).toBeGreaterThanOrEqual(5000);
    expect(second).toBeLessThanOrEqual(5500);
    expect(nextRetryDelayMs(9, undefined, schedule)).toBeUndefined();
  });

  it('honours a longer Retry-After, and can be replaced for tests', () => {
    expect(nextRetryDelayMs(1, 30, [0, 5])).toBe(30_000);
    expect(nextRetryDelayMs(1, 8.64e12, [0, 5])).toBe(24 * 3600 * 1000);
    const env = (vars: Record<string, string>) => vars as unknown as NodeJS.ProcessEnv;
    expect(loadConfig(env({})).WEBHOOK_RETRY_SCHEDULE).toBeUndefined();
    expect(loadConfig(env({ WEBHOOK_RETRY_SCHEDULE: '0, 0.2' })).WEBHOOK_RETRY_SCHEDULE).toEqual([0, 0.2]);
    for (const bad of ['soon', '0,,5', '-1']) {
      expect(() => loadConfig(env({ WEBHOOK_RETRY_SCHEDULE: bad }))).toThrow(/WEBHOOK_RETRY_SCHEDULE: must be seconds/);
    }
  });
});
