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

  it('reads WORKER_NETWORK_SHARE as a fraction below 1, a number of slots from 1, and refuses anything else by name', () => {
    expect(loadConfig(env({})).WORKER_NETWORK_SHARE).toBe(0.25);
    expect(loadConfig(env({ WORKER_NETWORK_SHARE: '0.5' })).WORKER_NETWORK_SHARE).toBe(0.5);
    expect(loadConfig(env({ WORKER_NETWORK_SHARE: '3' })).WORKER_NETWORK_SHARE).toBe(3);
    for (const bad of ['0', '1.5', '-1', '25%', 'half', '']) {
      expect(() => loadConfig(env({ WORKER_NETWORK_SHARE: bad }))).toThrow(/WORKER_NETWORK_SHARE: must be a fraction/);
    }
  });

  it('refuses preview and worker pool sizes that are not whole numbers in range, naming the setting', () => {
    expect(loadConfig(env({})).PREVIEW_CONCURRENCY_PER_NETWORK).toBe(2);
    expect(loadConfig(env({})).PREVIEW_QUEUE_PER_NETWORK).toBe(4);
    expect(loadConfig(env({})).WORKER_SYNTHESIS_CONCURRENCY).toBe(20);
    expect(() => loadConfig(env({ PREVIEW_CONCURRENCY_PER_NETWORK: '0' }))).toThrow(/PREVIEW_CONCURRENCY_PER_NETWORK/);
    expect(() => loadConfig(env({ PREVIEW_QUEUE_PER_NETWORK: 'many' }))).toThrow(/PREVIEW_QUEUE_PER_NETWORK/);
    expect(() => loadConfig(env({ WORKER_SYNTHESIS_CONCURRENCY: '2.5' }))).toThrow(/WORKER_SYNTHESIS_CONCURRENCY/);
  });
});
