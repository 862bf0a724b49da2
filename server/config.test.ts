import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

const env = (vars: Record<string, string>) => vars as unknown as NodeJS.ProcessEnv;

describe('configuration', () => {
  it('refuses live mode without APP_SECRET_KEY, and with private webhook targets allowed', () => {
    expect(() => loadConfig(env({ APP_ENV: 'live' }))).toThrow(/APP_SECRET_KEY is required/);
    expect(() => loadConfig(env({ APP_ENV: 'live', APP_SECRET_KEY: 'x'.repeat(40), WEBHOOK_ALLOW_PRIVATE: '1' }))).toThrow(/WEBHOOK_ALLOW_PRIVATE/);
    expect(loadConfig(env({ APP_ENV: 'live', APP_SECRET_KEY: 'x'.repeat(40), SMTP_URL: 'smtps://mail.example.com' })).APP_ENV).toBe('live');
    expect(loadConfig(env({ WEBHOOK_ALLOW_PRIVATE: '1' })).APP_ENV).toBe('test');
  });

  it('refuses live mode without SMTP_URL, and a mail setting that does not parse, naming it', () => {
    expect(() => loadConfig(env({ APP_ENV: 'live', APP_SECRET_KEY: 'x'.repeat(40) }))).toThrow(/SMTP_URL is required when APP_ENV=live/);
    expect(loadConfig(env({})).SMTP_URL).toBeUndefined();
    expect(loadConfig(env({ SMTP_URL: 'smtp://user:pw@127.0.0.1:2525' })).SMTP_URL).toBe('smtp://user:pw@127.0.0.1:2525');
    expect(loadConfig(env({ MAIL_FROM: 'ads@example.com' })).MAIL_FROM).toBe('ads@example.com');
    expect(loadConfig(env({ MAIL_FROM: 'Acme Ads <ads@example.com>' })).MAIL_FROM).toBe('Acme Ads <ads@example.com>');
    expect(() => loadConfig(env({ SMTP_URL: 'https://mail.example.com' }))).toThrow(/SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/);
    expect(() => loadConfig(env({ MAIL_FROM: 'nobody' }))).toThrow(/MAIL_FROM: must be an address/);
    expect(() => loadConfig(env({ MAIL_MAX_ATTEMPTS: 'many' }))).toThrow(/MAIL_MAX_ATTEMPTS/);
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

  it('parses the webhook and synthesis job settings once, and stops the start on a value that does not parse, naming it', () => {
    const defaults = loadConfig(env({}));
    expect([defaults.WEBHOOK_TIMEOUT_MS, defaults.WEBHOOK_ENDPOINT_CONCURRENCY, defaults.WEBHOOK_AUTO_DISABLE_DAYS]).toEqual([15_000, 8, 5]);
    expect([defaults.WEBHOOK_RETENTION_DAYS, defaults.WEBHOOK_ALLOW_PRIVATE, defaults.SYNTH_JOB_MAX_ATTEMPTS]).toEqual([30, '0', 5]);
    const bad: Record<string, string> = {
      WEBHOOK_TIMEOUT_MS: 'fast',
      WEBHOOK_ENDPOINT_CONCURRENCY: '65',
      WEBHOOK_AUTO_DISABLE_DAYS: '0',
      WEBHOOK_RETENTION_DAYS: 'a month',
      WEBHOOK_ALLOW_PRIVATE: 'yes',
      SYNTH_JOB_MAX_ATTEMPTS: '2.5',
      LOG_LEVEL: 'loud',
      NODE_ENV: 'staging',
      REFUSAL_HOLD_MS: '-1',
    };
    for (const [name, value] of Object.entries(bad)) {
      expect(() => loadConfig(env({ [name]: value })), name).toThrow(new RegExp(`Invalid environment:\\n  ${name}: `));
    }
  });

  it('parses the synthesis provider at start: an unknown one, or http without its URL, stops it with the setting named', () => {
    expect(loadConfig(env({})).SYNTH_PROVIDER).toBe('local');
    const http = loadConfig(env({ SYNTH_PROVIDER: ' HTTP ', SYNTH_BASE_URL: 'http://127.0.0.1:9', SYNTH_VOICE_MAP: '{"deep":"v-9"}' }));
    expect([http.SYNTH_PROVIDER, http.SYNTH_BASE_URL, http.SYNTH_VOICE_MAP, http.SYNTH_TIMEOUT_MS]).toEqual([
      'http',
      'http://127.0.0.1:9',
      { deep: 'v-9' },
      30_000,
    ]);
    expect(() => loadConfig(env({ SYNTH_PROVIDER: 'nope' }))).toThrow(/SYNTH_PROVIDER: must be "local" or "http"/);
    expect(() => loadConfig(env({ SYNTH_PROVIDER: 'http' }))).toThrow(/Invalid environment:\n  SYNTH_PROVIDER=http requires SYNTH_BASE_URL/);
    const withUrl = { SYNTH_PROVIDER: 'http', SYNTH_BASE_URL: 'http://127.0.0.1:9' };
    const bad = { SYNTH_TIMEOUT_MS: 'soon', SYNTH_MAX_RETRIES: '-1', SYNTH_BASE_URL: 'api.example.com', SYNTH_VOICE_MAP: '["a"]' };
    for (const [name, value] of Object.entries(bad)) {
      expect(() => loadConfig(env({ ...withUrl, [name]: value })), name).toThrow(new RegExp(`Invalid environment:\\n  ${name}: `));
    }
  });
});
