import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

const env = (vars: Record<string, string>) => vars as unknown as NodeJS.ProcessEnv;

describe('configuration', () => {
  it('refuses live mode without APP_SECRET_KEY, and with private webhook targets allowed', () => {
    expect(() => loadConfig(env({ APP_ENV: 'live' }))).toThrow(/APP_SECRET_KEY is required/);
    expect(() => loadConfig(env({ APP_ENV: 'live', APP_SECRET_KEY: 'x'.repeat(40), WEBHOOK_ALLOW_PRIVATE: '1' }))).toThrow(/WEBHOOK_ALLOW_PRIVATE/);
    expect(loadConfig(env({ APP_ENV: 'live', APP_SECRET_KEY: 'x'.repeat(40) })).APP_ENV).toBe('live');
    expect(loadConfig(env({ WEBHOOK_ALLOW_PRIVATE: '1' })).APP_ENV).toBe('test');
  });

  it('refuses preview limits that are not whole numbers in range, naming the setting', () => {
    expect(loadConfig(env({})).PREVIEW_CONCURRENCY_PER_NETWORK).toBe(2);
    expect(loadConfig(env({})).PREVIEW_QUEUE_PER_NETWORK).toBe(4);
    expect(() => loadConfig(env({ PREVIEW_CONCURRENCY_PER_NETWORK: '0' }))).toThrow(/PREVIEW_CONCURRENCY_PER_NETWORK/);
    expect(() => loadConfig(env({ PREVIEW_QUEUE_PER_NETWORK: 'many' }))).toThrow(/PREVIEW_QUEUE_PER_NETWORK/);
  });
});
