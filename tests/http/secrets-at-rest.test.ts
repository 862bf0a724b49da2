import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { describe, expect, inject, it } from 'vitest';
import { database } from '@/db/client';
import { api } from '@/tests/support/api';
import { createNetworkRow, personKey, useTestDatabase } from '@/tests/support/fixtures';
import { reportReliability } from '@/tests/support/reliability';
import { until } from '@/tests/support/until';

useTestDatabase();

const TOKEN_PATTERN = /(sk_(test|live)|inv|sil)_[0-9A-Za-z]{32,}|whsec_[0-9A-Za-z+\/]{20,}/;

/** Every row of every table we own, as text. */
async function everyRowAsText(): Promise<Array<{ table: string; text: string }>> {
  const tables = await database().execute<{ schema: string; name: string }>(sql`
    select table_schema as schema, table_name as name from information_schema.tables
    where table_schema in ('public', 'graphile_worker', 'drizzle') and table_type = 'BASE TABLE'`);
  const out: Array<{ table: string; text: string }> = [];
  for (const t of tables) {
    const rows = await database().execute<{ row: string }>(sql.raw(`select row_to_json(t)::text as row from "${t.schema}"."${t.name}" t`));
    for (const r of rows) out.push({ table: `${t.schema}.${t.name}`, text: r.row });
  }
  return out;
}

describe('secrets at rest', () => {
  it('API key, invitation and sign-in link tokens exist only as hashes, webhook secrets only sealed', async () => {
    const network = await createNetworkRow();
    const { token, person } = await personKey([{ networkId: network.id, role: 'administrator' }]);
    const tokens: string[] = [token];
    // A key created with an Idempotency-Key: its stored response carries the token and must be sealed.
    const key = await api<{ token: string }>('POST', '/apikeys', { token, body: { key_name: 'scan' }, headers: { 'idempotency-key': randomUUID() } });
    expect(key.status).toBe(201);
    tokens.push(key.body.token);
    const invitation = await api<{ token?: string }>('POST', `/networks/${network.id}/invitations`, {
      token,
      body: { email: `scan-${randomUUID()}@example.test`, role: 'read_only' },
    });
    expect(invitation.status).toBe(201);
    tokens.push(invitation.body.token!);
    // A webhook secret (TEST-NET address: nothing is ever sent there; no event happens in this network).
    const hook = await api<{ id: string; secret: string }>('POST', `/networks/${network.id}/webhooks`, {
      token,
      body: { url: 'https://93.184.216.10/hooks', events: ['offer.accepted'] },
    });
    expect(hook.status).toBe(201);
    tokens.push(hook.body.secret);

    // A sign-in link (the worker mails it; test mode's outbox shows it to the operator), and the session it gives.
    expect((await api('POST', '/sign-in/email', { token: null, body: { email: person.email } })).status).toBe(202);
    const signInEmail = await until(async () => {
      const list = await api<{ items: Array<{ id: string; kind: string }> }>('GET', `/emails?to=${encodeURIComponent(person.email!)}`);
      return list.body.items.find((e) => e.kind === 'sign_in');
    }, 30_000);
    const link = (await api<{ link: string }>('GET', `/emails/${signInEmail.id}`)).body.link;
    const linkToken = /#token=(sil_\w+)/.exec(link)![1]!;
    tokens.push(linkToken);
    const session = await api<{ api_key: { token: string } }>('POST', '/sign-in', { token: linkToken, headers: { 'idempotency-key': randomUUID() } });
    expect(session.status).toBe(201);
    tokens.push(session.body.api_key.token);

    // Each token also sent back as a (wrong-scope or revoked-looking) bearer, which logs must not echo.
    for (const t of tokens) await api('GET', '/me', { token: `${t}x` });
    const rotated = await api<{ secret: string }>('POST', `/networks/${network.id}/webhooks/${hook.body.id}/rotate-secret`, { token });
    tokens.push(rotated.body.secret);

    const rows = await everyRowAsText();
    expect(rows.length).toBeGreaterThan(0);
    const leaks = rows.filter((r) => TOKEN_PATTERN.test(r.text) || tokens.some((t) => r.text.includes(t)));
    expect(leaks.map((l) => l.table)).toEqual([]);

    // The server's log, once this test's last request is in it (logs are buffered).
    const marker = `scan-${randomUUID()}`;
    await api('GET', '/me', { token, headers: { 'x-request-id': marker } });
    let log = '';
    for (const deadline = Date.now() + 5000; Date.now() < deadline && !log.includes(marker);) {
      await new Promise((r) => setTimeout(r, 200));
      log = readFileSync(inject('serverLogFile'), 'utf8');
    }
    expect(log).toContain(marker);
    expect(log).not.toMatch(TOKEN_PATTERN);
    expect(tokens.filter((t) => log.includes(t))).toEqual([]);
    reportReliability('secrets', {
      claim:
        'API keys, invitation and sign-in link tokens and webhook secrets are absent from every table (hashes / sealed only) and from the server log',
      figures: { 'rows scanned': rows.length, 'log lines scanned': log.split('\n').length, 'secrets planted': tokens.length, leaks: 0 },
    });
  });
});
