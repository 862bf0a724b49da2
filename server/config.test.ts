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
});
