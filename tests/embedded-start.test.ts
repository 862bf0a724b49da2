import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { api } from './support/api';
import { freePort, startServerProcess } from './support/server-process';

describe('npm start without DATABASE_URL', () => {
  it('runs on an embedded Postgres under DATA_DIR and reuses it on the next start', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'ans-embedded-'));
    const env = { DATABASE_URL: '', DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(await freePort()), WORKER: 'on' };
    try {
      const first = await startServerProcess(env);
      let token: string;
      try {
        const printed = first.output().match(/sk_test_[0-9A-Za-z]{40}/g) ?? [];
        expect(printed).toHaveLength(1);
        token = printed[0]!;
        const created = await api<{ id: string }>('POST', '/networks', { token, body: { name: 'Embedded' }, baseUrl: first.url });
        expect(created.status).toBe(201);
      } finally {
        expect(await first.stop()).toBe(0);
      }

      const second = await startServerProcess(env);
      try {
        expect(second.output()).not.toMatch(/sk_test_[0-9A-Za-z]{40}/);
        const list = await api<{ items: Array<{ name: string }> }>('GET', '/networks', { token, baseUrl: second.url });
        expect(list.status).toBe(200);
        expect(list.body.items.map((n) => n.name)).toEqual(['Embedded']);
      } finally {
        expect(await second.stop()).toBe(0);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
