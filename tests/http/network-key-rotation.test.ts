import { describe, expect, it } from 'vitest';
import { api } from '@/tests/support/api';
import { createNetworkRow, personKey, serviceAccountKey, useTestDatabase } from '@/tests/support/fixtures';

useTestDatabase();

interface Key {
  id: string;
  key_name: string;
  token?: string;
  scopes: Array<{ network_id: string; role: string }>;
  owner: { type: string; id: string };
  replaced_by_key_id: string | null;
}

describe('POST /v1/networks/{networkId}/apikeys/{keyId}/rotate', () => {
  it('an administrator rotates a service account’s key: new token once, the old one works for the grace period', async () => {
    const network = await createNetworkRow();
    const admin = await personKey([{ networkId: network.id, role: 'administrator' }]);
    const account = await serviceAccountKey(network.id, 'read_only');
    const keys = await api<{ items: Key[] }>('GET', `/networks/${network.id}/apikeys`, { token: admin.token });
    const target = keys.body.items.find((k) => k.owner.type === 'service_account')!;

    const rotated = await api<Key>('POST', `/networks/${network.id}/apikeys/${target.id}/rotate`, {
      token: admin.token,
      body: { grace_period_seconds: 60 },
    });
    expect(rotated.status).toBe(201);
    expect(rotated.body.token).toMatch(/^sk_test_/);
    expect(rotated.body).toMatchObject({ key_name: target.key_name, owner: target.owner, scopes: target.scopes });
    expect((await api('GET', '/me', { token: account.token })).status).toBe(200);
    expect((await api('GET', '/me', { token: rotated.body.token })).status).toBe(200);
    const again = await api('POST', `/networks/${network.id}/apikeys/${target.id}/rotate`, { token: admin.token });
    expect(again.status).toBe(409);
  });

  it('refuses read_only callers, keys of other networks, and keys that also reach other networks', async () => {
    const network = await createNetworkRow();
    const other = await createNetworkRow();
    const admin = await personKey([{ networkId: network.id, role: 'administrator' }]);
    const reader = await personKey([{ networkId: network.id, role: 'read_only' }]);
    const both = await personKey([
      { networkId: network.id, role: 'read_only' },
      { networkId: other.id, role: 'administrator' },
    ]);
    const elsewhere = await personKey([{ networkId: other.id, role: 'administrator' }]);

    expect((await api('POST', `/networks/${network.id}/apikeys/${both.key.id}/rotate`, { token: reader.token })).status).toBe(403);
    const wide = await api<{ detail: string }>('POST', `/networks/${network.id}/apikeys/${both.key.id}/rotate`, { token: admin.token });
    expect(wide.status).toBe(403);
    expect(wide.body.detail).toMatch(/other networks/);
    expect((await api('POST', `/networks/${network.id}/apikeys/${elsewhere.key.id}/rotate`, { token: admin.token })).status).toBe(404);
  });
});
