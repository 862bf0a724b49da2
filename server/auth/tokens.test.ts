import { describe, expect, it } from 'vitest';
import { API_KEY_PATTERN, generateApiKeyToken, hashToken, tokenStart } from './tokens';

describe('API key tokens', () => {
  it('are sk_test_/sk_live_ plus 40 base62 characters, all different', () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => generateApiKeyToken('test')));
    expect(tokens.size).toBe(1000);
    for (const t of tokens) expect(t).toMatch(/^sk_test_[0-9A-Za-z]{40}$/);
    expect(generateApiKeyToken('live')).toMatch(/^sk_live_[0-9A-Za-z]{40}$/);
    expect(API_KEY_PATTERN.test(generateApiKeyToken('live'))).toBe(true);
  });

  it('are stored as a SHA-256 hex digest and shown by a short start only', () => {
    const token = 'sk_test_' + 'a'.repeat(40);
    expect(hashToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(token)).not.toContain('aaaa');
    expect(tokenStart(token)).toBe('sk_test_aaaa');
  });
});
