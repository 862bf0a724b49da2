import { readFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { api } from '@/tests/support/api';

describe('request logs', () => {
  it('writes one JSON line per request with request id, key id, route, status and duration — never the token', async () => {
    const token = inject('superToken');
    const res = await api('GET', '/me', { headers: { 'x-request-id': 'log-test-1' } });
    expect(res.headers.get('request-id')).toBe('log-test-1');
    await api('GET', '/me', { token: `${token}x` });
    let lines: Array<Record<string, unknown>> = [];
    const deadline = Date.now() + 5000;
    // Logs are buffered; wait until our line is flushed.
    while (Date.now() < deadline) {
      const text = readFileSync(inject('serverLogFile'), 'utf8');
      lines = text
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      if (lines.some((l) => l.requestId === 'log-test-1')) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const line = lines.find((l) => l.requestId === 'log-test-1');
    expect(line).toMatchObject({ msg: 'request', method: 'GET', route: 'GET /me', status: 200 });
    expect(line!.keyId).toMatch(/^key_/);
    expect(typeof line!.durationMs).toBe('number');
    const all = readFileSync(inject('serverLogFile'), 'utf8');
    expect(all).not.toContain(token);
    expect(all).not.toMatch(/sk_(test|live)_[0-9A-Za-z]{32,}/);
  });
});
