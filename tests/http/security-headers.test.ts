import { describe, expect, inject, it } from 'vitest';
import { api } from '@/tests/support/api';

describe('security headers', () => {
  it('API answers, tokens included, are never cached and never sniffed', async () => {
    for (const res of [
      await api('GET', '/me'),
      await api('POST', '/apikeys', { body: { key_name: 'headers', scopes: [] } }),
      await api('GET', '/me', { token: null }),
    ]) {
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('console pages cannot be framed and send no Referer', async () => {
    const res = await fetch(`${inject('baseUrl')}/console`);
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
