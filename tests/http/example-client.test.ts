import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { clientTypes, CLIENT_SCHEMA } from '@/scripts/generate-client-types';
import { generateApiKeyToken } from '@/server/auth/tokens';
import { api } from '@/tests/support/api';
import { ROOT, startOwnServer } from '@/tests/support/server-process';

/** examples/typescript-client: a typed client generated from our own /v1/openapi.json, compiled and run. */
const EXAMPLE = path.join(ROOT, 'examples/typescript-client');
const token = generateApiKeyToken('test');
let own: Awaited<ReturnType<typeof startOwnServer>>;

beforeAll(async () => {
  // A server of its own: the example subscribes a webhook on 127.0.0.1.
  own = await startOwnServer('example', { BOOTSTRAP_SUPERUSER_TOKEN: token, WEBHOOK_ALLOW_PRIVATE: '1' });
});
afterAll(async () => {
  await own?.stop();
});

describe('the generated TypeScript client example', () => {
  it('was generated from the document the server serves now (run `npm run examples:generate` when this fails)', async () => {
    const served = await fetch(`${inject('baseUrl')}/v1/openapi.json`);
    expect(served.status).toBe(200);
    expect(readFileSync(CLIENT_SCHEMA, 'utf8')).toBe(await clientTypes(await served.text()));
  });

  it('compiles with tsc (strict)', () => {
    const tsc = spawnSync(path.join(ROOT, 'node_modules/.bin/tsc'), ['-p', EXAMPLE], { cwd: ROOT, encoding: 'utf8' });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });

  it('lists networks, creates a campaign and verifies a real signed webhook', async () => {
    const network = await api<{ id: string }>('POST', '/networks', { token, baseUrl: own.server.url, body: { name: 'Example network' } });
    expect(network.status).toBe(201);
    const run = spawnSync(path.join(ROOT, 'node_modules/.bin/tsx'), ['src/main.ts'], {
      cwd: EXAMPLE,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, AD_NETWORK_URL: own.server.url, AD_NETWORK_TOKEN: token },
    });
    expect(run.status, run.stderr).toBe(0);
    const summary = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as {
      networks: number;
      networkId: string;
      campaignId: string;
      webhook: { type: string; id: string } | null;
    };
    expect(summary.networks).toBe(1);
    expect(summary.networkId).toBe(network.body.id);
    expect(summary.webhook?.type).toBe('optin.completed');
    const campaign = await api<{ name: string; status: string }>('GET', `/networks/${network.body.id}/campaigns/${summary.campaignId}`, {
      token,
      baseUrl: own.server.url,
    });
    expect(campaign.status).toBe(200);
    expect(campaign.body).toMatchObject({ name: 'Spring roast', status: 'active' });
  });
});
