import { afterEach, describe, expect, it } from 'vitest';
import { derivedKey, loadAppSecret, openSecret, sealSecret } from './secrets';
import { config, setConfig, loadConfig } from './config';

const saved = config();
afterEach(() => setConfig(saved));

describe('sealed secrets', () => {
  it('round-trip, differ every time, and refuse tampering or the wrong purpose', async () => {
    setConfig(loadConfig({ APP_SECRET_KEY: 'x'.repeat(40) } as unknown as NodeJS.ProcessEnv));
    await loadAppSecret(undefined as never);
    expect(derivedKey('a').export()).toHaveLength(32);
    expect(derivedKey('a').export()).not.toEqual(derivedKey('b').export());
    expect(derivedKey('a').export()).toEqual(derivedKey('a').export());
    const a = sealSecret('p', 'sk_test_secret');
    const b = sealSecret('p', 'sk_test_secret');
    expect(a).not.toBe(b);
    expect(a).not.toContain('secret');
    expect(openSecret('p', a)).toBe('sk_test_secret');
    expect(() => openSecret('other', a)).toThrow();
    const parts = a.split('.');
    parts[2] = Buffer.from('tampered').toString('base64url');
    expect(() => openSecret('p', parts.join('.'))).toThrow();
  });
});
