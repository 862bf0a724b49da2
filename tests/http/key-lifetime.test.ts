import { describe, expect, it } from 'vitest';
import { api } from '@/tests/support/api';
import { useTestDatabase } from '@/tests/support/fixtures';

useTestDatabase();

/**
 * A network's key lifetime limit (`max_key_lifetime_days`, G14), over HTTP on the shared service
 * (test mode: networks start without one; tests/http/mail.test.ts checks live mode's year). Every
 * way a key is made goes through one check (server/services/keys/mint-api-key.ts).
 */
interface Network {
  id: string;
  max_key_lifetime_days: number | null;
  version: number;
}
interface Key {
  id: string;
  token: string;
  expires_at: string | null;
}

const DAY = 86_400_000;
const daysFromNow = (days: number) => new Date(Date.now() + days * DAY).toISOString();
const daysUntil = (iso: string | null) => (Date.parse(iso!) - Date.now()) / DAY;

async function networkWithAdministrator(limit: number | null) {
  const network = await api<Network>('POST', '/networks', { body: { name: `Lifetime ${limit}`, max_key_lifetime_days: limit } });
  expect(network.status).toBe(201);
  expect(network.body.max_key_lifetime_days).toBe(limit);
  const invited = await api<{ token: string }>('POST', `/networks/${network.body.id}/invitations`, {
    body: { email: `admin-${network.body.id}@lifetime.example`, role: 'administrator' },
  });
  const accepted = await api<{ api_key: Key; member: { id: string } }>('POST', '/invitations/accept', {
    token: invited.body.token,
    body: { name: 'Ada' },
  });
  expect(accepted.status).toBe(201);
  return { network: network.body, admin: accepted.body.api_key, memberId: accepted.body.member.id };
}

describe('a network’s key lifetime limit', () => {
  it('ends every key made for the network within it: the first key, own keys, member and service account keys', async () => {
    const { network, admin, memberId } = await networkWithAdministrator(30);
    // The invitation's first key: no end asked for, so the limit's.
    expect(daysUntil(admin.expires_at)).toBeCloseTo(30, 1);

    const own = await api<Key>('POST', '/apikeys', { token: admin.token, body: { key_name: 'CI' } });
    expect(own.status).toBe(201);
    expect(daysUntil(own.body.expires_at)).toBeCloseTo(30, 1);
    const shorter = await api<Key>('POST', '/apikeys', { token: admin.token, body: { key_name: 'short', expires_at: daysFromNow(7) } });
    expect(daysUntil(shorter.body.expires_at)).toBeCloseTo(7, 1);

    const paths = [
      ['/apikeys', admin.token],
      [`/networks/${network.id}/members/${memberId}/keys`, admin.token],
    ] as const;
    for (const [path, token] of paths) {
      const beyond = await api<{ detail: string; errors: Array<{ path: string }> }>('POST', path, {
        token,
        body: { key_name: 'too long', expires_at: daysFromNow(31) },
      });
      expect(beyond.status, path).toBe(400);
      expect(beyond.body.detail).toMatch(new RegExp(`live at most 30 days \\(its max_key_lifetime_days\\)`));
      expect(beyond.body.errors).toEqual([{ path: 'expires_at', message: 'At most 30 days from now.' }]);
    }
    const account = await api<{ id: string; api_key: Key }>('POST', `/networks/${network.id}/service-accounts`, {
      token: admin.token,
      body: { name: 'integration', role: 'read_only' },
    });
    expect(account.status).toBe(201);
    expect(daysUntil(account.body.api_key.expires_at)).toBeCloseTo(30, 1);
    const saKey = await api('POST', `/networks/${network.id}/service-accounts/${account.body.id}/keys`, {
      token: admin.token,
      body: { key_name: 'forever', expires_at: daysFromNow(400) },
    });
    expect(saKey.status).toBe(400);
  });

  it('is the strictest of a key’s networks', async () => {
    const strict = await networkWithAdministrator(10);
    const lax = await api<Network>('POST', '/networks', { body: { name: 'Lax', max_key_lifetime_days: 100 } });
    const both = await api<Key & { scopes: unknown[] }>('POST', '/apikeys', {
      body: {
        key_name: 'both',
        scopes: [
          { network_id: strict.network.id, role: 'read_only' },
          { network_id: lax.body.id, role: 'read_only' },
        ],
      },
    });
    expect(both.status).toBe(201);
    expect(daysUntil(both.body.expires_at)).toBeCloseTo(10, 1);
  });

  it('is changed by an administrator (audited); existing keys keep their end, a rotation is cut to the new limit', async () => {
    const { network, admin } = await networkWithAdministrator(null);
    expect(admin.expires_at).toBeNull();
    const before = await api<Key>('POST', '/apikeys', { token: admin.token, body: { key_name: 'long', expires_at: daysFromNow(200) } });
    expect(before.status).toBe(201);

    const patched = await api<Network>('PATCH', `/networks/${network.id}`, {
      token: admin.token,
      body: { max_key_lifetime_days: 90, version: network.version },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.max_key_lifetime_days).toBe(90);
    const audit = await api<{ items: Array<{ action: string; data: Record<string, unknown> }> }>(
      'GET',
      `/networks/${network.id}/audit-log?action=network.updated`,
      {
        token: admin.token,
      },
    );
    expect(audit.body.items.map((e) => e.data)).toEqual([{ max_key_lifetime_days: 90 }]);

    // The key made before keeps its 200 days; rotating it gives a key that ends within 90.
    const kept = await api<Key>('GET', `/apikeys/${before.body.id}`, { token: admin.token });
    expect(daysUntil(kept.body.expires_at)).toBeCloseTo(200, 1);
    const rotated = await api<Key>('POST', `/apikeys/${before.body.id}/rotate`, { token: admin.token, body: {} });
    expect(rotated.status).toBe(201);
    expect(daysUntil(rotated.body.expires_at)).toBeCloseTo(90, 1);

    for (const bad of [0, 3651, 1.5, '30']) {
      const refused = await api('PATCH', `/networks/${network.id}`, { token: admin.token, body: { max_key_lifetime_days: bad } });
      expect(refused.status, String(bad)).toBe(400);
    }
    const cleared = await api<Network>('PATCH', `/networks/${network.id}`, { token: admin.token, body: { max_key_lifetime_days: null } });
    expect(cleared.body.max_key_lifetime_days).toBeNull();
    const read = await api<Network>('PATCH', `/networks/${network.id}`, { token: admin.token, body: { name: 'Renamed' } });
    expect(read.body.max_key_lifetime_days).toBeNull();
  });
});
