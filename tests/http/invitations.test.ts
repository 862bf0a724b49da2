import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { apiKeys, auditLog, invitations, memberships, users } from '@/db/schema';
import type { Role } from '@/domain/roles';
import { api, type Page, type Problem } from '@/tests/support/api';
import { createTestDatabase } from '@/tests/support/database';
import { createNetworkRow, keyOnTwoNetworks, personKey, serviceAccountKey, useTestDatabase } from '@/tests/support/fixtures';
import { API_ONLY, startServerProcess, type ServerProcess } from '@/tests/support/server-process';
import { generateApiKeyToken } from '@/server/auth/tokens';

useTestDatabase();

interface Invitation {
  id: string;
  network_id: string;
  email: string;
  role: Role;
  status: 'pending' | 'accepted' | 'revoked' | 'expired';
  expires_at: string;
  created_at: string;
  accepted_at: string | null;
  token?: string;
  email_id?: string;
}
interface Accepted {
  member: { id: string; network_id: string; user: { id: string; email: string; name: string }; role: Role; status: string; version: number };
  api_key: { id: string; token: string; scopes: Array<{ network_id: string; role: Role }>; owner: { type: string; id: string } };
}

const uniqueEmail = () => `Invitee-${Math.random().toString(36).slice(2, 10)}@Example.TEST`;

async function adminOf(networkId: string) {
  return personKey([{ networkId, role: 'administrator' }]);
}

async function invite(networkId: string, token: string, body: Record<string, unknown> = {}) {
  const res = await api<Invitation>('POST', `/networks/${networkId}/invitations`, {
    token,
    body: { email: uniqueEmail(), role: 'read_only', ...body },
  });
  expect(res.status).toBe(201);
  return res.body as Invitation & { token: string };
}

function accept(invitationToken: string | null, body?: Record<string, unknown>, headers?: Record<string, string>) {
  return api<Accepted>('POST', '/invitations/accept', { token: invitationToken, body, headers });
}

describe('creating invitations', () => {
  it('201 with the invitation and an inv_ token shown once; only the hash is stored; audited', async () => {
    const network = await createNetworkRow();
    const admin = await adminOf(network.id);
    const email = uniqueEmail();
    const res = await api<Invitation>('POST', `/networks/${network.id}/invitations`, {
      token: admin.token,
      body: { email: `  ${email} `, role: 'administrator' },
    });
    expect(res.status).toBe(201);
    const body = res.body;
    expect(body.id).toMatch(/^ivt_[0-9a-z]{26}$/);
    expect(body.token).toMatch(/^inv_[0-9A-Za-z]{40}$/);
    expect(body).toMatchObject({ network_id: network.id, email: email.toLowerCase(), role: 'administrator', status: 'pending', accepted_at: null });
    const days = (new Date(body.expires_at).getTime() - new Date(body.created_at).getTime()) / 86_400_000;
    expect(days).toBeCloseTo(7, 2);

    const [row] = await database().select().from(invitations).where(eq(invitations.id, body.id));
    expect(row!.tokenHash).toBe(createHash('sha256').update(body.token!).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(body.token!);
    expect(JSON.stringify(row)).not.toContain(body.token!.slice(4));

    expect(body.email_id).toMatch(/^eml_[0-9a-z]{26}$/);

    // The token and the email that carries it are in the creation's answer only.
    const listed = await api<Page<Invitation>>('GET', `/networks/${network.id}/invitations`, { token: admin.token });
    const shown: Partial<Invitation> = { ...body };
    delete shown.token;
    delete shown.email_id;
    expect(listed.body.items).toEqual([shown]);

    const audit = await database().select().from(auditLog).where(eq(auditLog.targetId, body.id));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'invitation.created', actorKeyId: admin.key.id, networkId: network.id, targetType: 'invitation' });
    expect(JSON.stringify(audit[0]!.data)).not.toContain(body.token!);
  });

  it('takes expires_in_days 1–30', async () => {
    const network = await createNetworkRow();
    const admin = await adminOf(network.id);
    const one = await invite(network.id, admin.token, { expires_in_days: 1 });
    expect((new Date(one.expires_at).getTime() - new Date(one.created_at).getTime()) / 86_400_000).toBeCloseTo(1, 2);
    for (const bad of [0, 31, 1.5]) {
      const res = await api<Problem>('POST', `/networks/${network.id}/invitations`, {
        token: admin.token,
        body: { email: uniqueEmail(), role: 'read_only', expires_in_days: bad },
      });
      expect(res.status).toBe(400);
      expect(res.body.errors![0]!.path).toBe('expires_in_days');
    }
  });

  it('refuses bad input with 400: bad email, bad role, unknown field, missing fields', async () => {
    const network = await createNetworkRow();
    const admin = await adminOf(network.id);
    const path = `/networks/${network.id}/invitations`;
    const badEmail = await api<Problem>('POST', path, { token: admin.token, body: { email: 'not-an-email', role: 'read_only' } });
    expect(badEmail.status).toBe(400);
    expect(badEmail.body.errors![0]).toEqual({ path: 'email', message: 'email must be a valid email address.' });
    const badRole = await api<Problem>('POST', path, { token: admin.token, body: { email: uniqueEmail(), role: 'owner' } });
    expect(badRole.status).toBe(400);
    expect(badRole.body.errors![0]!.path).toBe('role');
    const unknown = await api<Problem>('POST', path, { token: admin.token, body: { email: uniqueEmail(), role: 'read_only', note: 'hi' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors![0]!.message).toMatch(/note/);
    expect((await api('POST', path, { token: admin.token })).status).toBe(400);
  });

  it('401 without a key; 403 for read_only and for a foreign network', async () => {
    const network = await createNetworkRow();
    const other = await createNetworkRow();
    const reader = await personKey([{ networkId: network.id, role: 'read_only' }]);
    const outsider = await adminOf(other.id);
    const path = `/networks/${network.id}/invitations`;
    const body = { email: uniqueEmail(), role: 'read_only' };
    expect((await api('POST', path, { token: null, body })).status).toBe(401);
    expect((await api('POST', path, { token: reader.token, body })).status).toBe(403);
    expect((await api('GET', path, { token: reader.token })).status).toBe(403);
    expect((await api('POST', path, { token: outsider.token, body })).status).toBe(403);
    expect((await api('GET', path, { token: outsider.token })).status).toBe(403);
  });

  it('inviting someone who is already an active member is 409', async () => {
    const network = await createNetworkRow();
    const admin = await adminOf(network.id);
    const res = await api<Problem>('POST', `/networks/${network.id}/invitations`, {
      token: admin.token,
      body: { email: admin.person.email!.toUpperCase(), role: 'read_only' },
    });
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/already an active member/);
  });
});

describe('listing and revoking invitations', () => {
  it('filters by status, including expired (pending past expires_at)', async () => {
    const network = await createNetworkRow();
    const admin = await adminOf(network.id);
    const pending = await invite(network.id, admin.token);
    const expired = await invite(network.id, admin.token);
    const revoked = await invite(network.id, admin.token);
    await database()
      .update(invitations)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(invitations.id, expired.id));
    expect((await api('DELETE', `/networks/${network.id}/invitations/${revoked.id}`, { token: admin.token })).status).toBe(200);

    const list = async (status?: string) => {
      const res = await api<Page<Invitation>>('GET', `/networks/${network.id}/invitations${status ? `?status=${status}` : ''}`, {
        token: admin.token,
      });
      expect(res.status).toBe(200);
      return res.body.items.map((i) => [i.id, i.status]);
    };
    expect(await list()).toEqual([
      [pending.id, 'pending'],
      [expired.id, 'expired'],
      [revoked.id, 'revoked'],
    ]);
    expect(await list('pending')).toEqual([[pending.id, 'pending']]);
    expect(await list('expired')).toEqual([[expired.id, 'expired']]);
    expect(await list('revoked')).toEqual([[revoked.id, 'revoked']]);
    expect(await list('accepted')).toEqual([]);
    expect((await api('GET', `/networks/${network.id}/invitations?status=nope`, { token: admin.token })).status).toBe(400);

    const page1 = await api<Page<Invitation>>('GET', `/networks/${network.id}/invitations?limit=2`, { token: admin.token });
    expect(page1.body.items).toHaveLength(2);
    const page2 = await api<Page<Invitation>>(
      'GET',
      `/networks/${network.id}/invitations?limit=2&cursor=${encodeURIComponent(page1.body.next_cursor!)}`,
      { token: admin.token },
    );
    expect(page2.body.items.map((i) => i.id)).toEqual([revoked.id]);
  });

  it('revokes a pending invitation (200, audited); then 409; expired 409; another network’s id 404; read_only 403', async () => {
    const network = await createNetworkRow();
    const other = await createNetworkRow();
    const admin = await adminOf(network.id);
    const otherAdmin = await adminOf(other.id);
    const reader = await personKey([{ networkId: network.id, role: 'read_only' }]);
    const invitation = await invite(network.id, admin.token);
    const foreign = await invite(other.id, otherAdmin.token);

    expect((await api('DELETE', `/networks/${network.id}/invitations/${invitation.id}`, { token: reader.token })).status).toBe(403);
    expect((await api('DELETE', `/networks/${network.id}/invitations/${foreign.id}`, { token: admin.token })).status).toBe(404);

    const res = await api<Invitation>('DELETE', `/networks/${network.id}/invitations/${invitation.id}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: invitation.id, status: 'revoked' });
    const again = await api<Problem>('DELETE', `/networks/${network.id}/invitations/${invitation.id}`, { token: admin.token });
    expect(again.status).toBe(409);
    expect(again.body.detail).toMatch(/revoked/);

    const audit = await database().select().from(auditLog).where(eq(auditLog.targetId, invitation.id));
    expect(audit.map((a) => a.action).sort()).toEqual(['invitation.created', 'invitation.revoked']);

    const stale = await invite(network.id, admin.token);
    await database()
      .update(invitations)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(invitations.id, stale.id));
    const expired = await api<Problem>('DELETE', `/networks/${network.id}/invitations/${stale.id}`, { token: admin.token });
    expect(expired.status).toBe(409);
    expect(expired.body.detail).toMatch(/expired/);
  });
});

describe('reading an invitation with its token (GET /v1/invitations/current)', () => {
  it('shows the network, role, email and sender; follows the status; never uses the invitation up', async () => {
    const network = await createNetworkRow('Night Owls Network');
    const admin = await adminOf(network.id);
    await database().update(users).set({ name: 'Ada Admin' }).where(eq(users.id, admin.person.id));
    const sent = await invite(network.id, admin.token, { role: 'administrator' });

    const read = await api<Record<string, unknown>>('GET', '/invitations/current', { token: sent.token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      id: sent.id,
      network: { id: network.id, name: 'Night Owls Network' },
      email: sent.email,
      role: 'administrator',
      status: 'pending',
      expires_at: sent.expires_at,
      invited_by: 'Ada Admin',
    });

    // Reading twice leaves it acceptable.
    expect((await api('GET', '/invitations/current', { token: sent.token })).status).toBe(200);
    expect((await accept(sent.token)).status).toBe(201);
    expect((await api<{ status: string }>('GET', '/invitations/current', { token: sent.token })).body.status).toBe('accepted');

    const revoked = await invite(network.id, admin.token);
    expect((await api('DELETE', `/networks/${network.id}/invitations/${revoked.id}`, { token: admin.token })).status).toBe(200);
    expect((await api<{ status: string }>('GET', '/invitations/current', { token: revoked.token })).body.status).toBe('revoked');
  });

  it('401 for an unknown token, 400 with an API key as the bearer', async () => {
    const network = await createNetworkRow();
    const admin = await adminOf(network.id);
    const unknown = await api<Problem>('GET', '/invitations/current', { token: `inv_${'A'.repeat(40)}` });
    expect(unknown.status).toBe(401);
    const withKey = await api<Problem>('GET', '/invitations/current', { token: admin.token });
    expect(withKey.status).toBe(400);
    expect(withKey.body.detail).toMatch(/invitation token \(inv_…\) as the bearer/);
  });
});

describe('accepting an invitation', () => {
  it('invite → accept → the new key works on the next request; event, audit, membership', async () => {
    const network = await createNetworkRow();
    const admin = await adminOf(network.id);
    const email = uniqueEmail();
    const invitation = await invite(network.id, admin.token, { email, role: 'administrator' });

    const res = await accept(invitation.token, { name: 'Ada Lovelace', key_name: 'my laptop' });
    expect(res.status).toBe(201);
    const { member, api_key } = res.body;
    expect(member).toMatchObject({
      network_id: network.id,
      role: 'administrator',
      status: 'active',
      user: { email: email.toLowerCase(), name: 'Ada Lovelace' },
    });
    expect(member.id).toMatch(/^mem_/);
    expect(api_key.token).toMatch(/^sk_test_[0-9A-Za-z]{40}$/);
    expect(api_key).toMatchObject({
      key_name: 'my laptop',
      scopes: [{ network_id: network.id, role: 'administrator' }],
      owner: { type: 'person', id: member.user.id },
    });

    const me = await api<{ key_id: string; scopes: unknown }>('GET', '/me', { token: api_key.token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ key_id: api_key.id, scopes: [{ network_id: network.id, role: 'administrator' }] });
    const members = await api<Page<{ id: string }>>('GET', `/networks/${network.id}/members`, { token: api_key.token });
    expect(members.body.items.map((m) => m.id)).toContain(member.id);

    const listed = await api<Page<Invitation>>('GET', `/networks/${network.id}/invitations?status=accepted`, { token: admin.token });
    expect(listed.body.items).toHaveLength(1);
    expect(listed.body.items[0]).toMatchObject({ id: invitation.id, status: 'accepted', accepted_at: expect.any(String) });

    const events = await api<Page<{ type: string; data: Record<string, unknown> }>>(
      'GET',
      `/networks/${network.id}/events?type=invitation.accepted`,
      {
        token: admin.token,
      },
    );
    expect(events.body.items).toHaveLength(1);
    expect(events.body.items[0]!.data).toEqual({
      invitation_id: invitation.id,
      member_id: member.id,
      user_id: member.user.id,
      email: email.toLowerCase(),
      role: 'administrator',
    });

    const audit = await database().select().from(auditLog).where(eq(auditLog.networkId, network.id));
    const acceptedRow = audit.find((a) => a.action === 'invitation.accepted');
    expect(acceptedRow).toMatchObject({ actorKeyId: null, targetType: 'invitation', targetId: invitation.id });
    expect(audit.find((a) => a.action === 'api_key.created' && a.targetId === api_key.id)).toBeTruthy();
    expect(JSON.stringify(audit)).not.toContain(api_key.token);

    const twice = await accept(invitation.token);
    expect(twice.status).toBe(409);
    expect((twice.body as unknown as Problem).detail).toMatch(/already been accepted/);
  });

  it('works with no body at all (curl -X POST) and names the person after the email', async () => {
    const network = await createNetworkRow();
    const admin = await adminOf(network.id);
    const invitation = await invite(network.id, admin.token, { email: 'plain-person-' + Date.now() + '@example.test' });
    const res = await api<Accepted>('POST', '/invitations/accept', { token: invitation.token });
    expect(res.status).toBe(201);
    expect(res.body.member.user.name).toMatch(/^plain-person-/);
    expect(res.body.member.role).toBe('read_only');
  });

  it('401 for a missing, malformed or unknown token (an API key is not an invitation token)', async () => {
    const cases: Array<string | null> = [null, 'inv_short', `inv_${'A'.repeat(40)}`, 'sk_test_' + 'a'.repeat(40)];
    for (const token of cases) {
      const res = await accept(token, {});
      expect(res.status, String(token)).toBe(401);
      expect((res.body as unknown as Problem).type).toMatch(/\/errors\/unauthorized$/);
    }
    const basic = await accept(null, {}, { authorization: 'Basic abc' });
    expect(basic.status).toBe(401);
  });

  it('400 for unknown fields in the body', async () => {
    const network = await createNetworkRow();
    const admin = await adminOf(network.id);
    const invitation = await invite(network.id, admin.token);
    const res = await accept(invitation.token, { role: 'administrator' });
    expect(res.status).toBe(400);
    expect((await accept(invitation.token)).status).toBe(201);
  });

  it('409 for a revoked or expired invitation, and nothing is created', async () => {
    const network = await createNetworkRow();
    const admin = await adminOf(network.id);
    const revoked = await invite(network.id, admin.token);
    await api('DELETE', `/networks/${network.id}/invitations/${revoked.id}`, { token: admin.token });
    const r = await accept(revoked.token);
    expect(r.status).toBe(409);
    expect((r.body as unknown as Problem).detail).toMatch(/revoked/);

    const expired = await invite(network.id, admin.token);
    await database()
      .update(invitations)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(invitations.id, expired.id));
    const e = await accept(expired.token);
    expect(e.status).toBe(409);
    expect((e.body as unknown as Problem).detail).toMatch(/expired/);

    const created = await database().select().from(users).where(eq(users.email, expired.email));
    expect(created).toHaveLength(0);
  });

  it('of concurrent acceptances of one invitation exactly one wins', async () => {
    const network = await createNetworkRow();
    const admin = await adminOf(network.id);
    const invitation = await invite(network.id, admin.token);
    const results = await Promise.all(Array.from({ length: 6 }, () => accept(invitation.token)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    const rows = await database().select().from(users).where(eq(users.email, invitation.email));
    expect(rows).toHaveLength(1);
  });
});

describe('an invitation for someone who already has an account (invariant 3)', () => {
  /** A person who was a read_only member of the network and was removed; they keep a key for another network. */
  async function removedPerson() {
    const network = await createNetworkRow();
    const elsewhere = await createNetworkRow();
    const admin = await adminOf(network.id);
    const person = await personKey([
      { networkId: network.id, role: 'read_only' },
      { networkId: elsewhere.id, role: 'read_only' },
    ]);
    const [membership] = await database()
      .select()
      .from(memberships)
      .where(and(eq(memberships.networkId, network.id), eq(memberships.userId, person.person.id)));
    expect((await api('DELETE', `/networks/${network.id}/members/${membership!.id}`, { token: admin.token })).status).toBe(200);
    return { network, elsewhere, admin, person, membership: membership! };
  }

  it('refuses the invitation token alone (403) and changes nothing: the token proves an invitation, not who accepts', async () => {
    const { network, admin, person, membership } = await removedPerson();
    const invitation = await invite(network.id, admin.token, { email: person.person.email, role: 'administrator' });
    const res = await api<Problem>('POST', '/invitations/accept', { token: invitation.token, body: {} });
    expect(res.status).toBe(403);
    expect(res.body.detail).toMatch(/already exists.*API keys.*invitation_token/);
    const [after] = await database().select().from(memberships).where(eq(memberships.id, membership.id));
    expect(after!.status).toBe('removed');
    const [row] = await database().select().from(invitations).where(eq(invitations.id, invitation.id));
    expect(row!.status).toBe('pending');
  });

  it('binds the account when its own key comes with the token: the membership returns with a fresh key, old keys stay out', async () => {
    const { network, elsewhere, admin, person, membership } = await removedPerson();
    const invitation = await invite(network.id, admin.token, { email: person.person.email, role: 'administrator' });
    const res = await api<Accepted>('POST', '/invitations/accept', {
      token: person.token,
      body: { invitation_token: invitation.token, key_name: 'back again', name: 'Ignored For Existing People' },
    });
    expect(res.status).toBe(201);
    expect(res.body.member).toMatchObject({ id: membership.id, status: 'active', role: 'administrator', version: 3 });
    expect(res.body.member.user).toMatchObject({ id: person.person.id, name: person.person.name });
    expect(res.body.api_key).toMatchObject({ key_name: 'back again', scopes: [{ network_id: network.id, role: 'administrator' }] });
    const fresh = await api<{ scopes: unknown }>('GET', '/me', { token: res.body.api_key.token });
    expect(fresh.body.scopes).toEqual([{ network_id: network.id, role: 'administrator' }]);
    // Removal is final for the old key: it still reaches only the other network (invariant 7).
    const old = await api<{ scopes: unknown }>('GET', '/me', { token: person.token });
    expect(old.body.scopes).toEqual([{ network_id: elsewhere.id, role: 'read_only' }]);
    const audit = await database().select().from(auditLog).where(eq(auditLog.targetId, invitation.id));
    expect(audit.find((r) => r.action === 'invitation.accepted')!.actorKeyId).toBe(person.key.id);
  });

  it('refuses a key of somebody else or of a service account (403), and a token sent twice or not at all (400)', async () => {
    const { network, admin, person } = await removedPerson();
    const invitation = await invite(network.id, admin.token, { email: person.person.email });
    const stranger = await personKey([{ networkId: network.id, role: 'administrator' }]);
    const asStranger = await api<Problem>('POST', '/invitations/accept', { token: stranger.token, body: { invitation_token: invitation.token } });
    expect(asStranger.status).toBe(403);
    expect(asStranger.body.detail).toMatch(/belongs to someone else/);
    const account = await serviceAccountKey(network.id, 'administrator');
    expect((await api('POST', '/invitations/accept', { token: account.token, body: { invitation_token: invitation.token } })).status).toBe(403);
    expect((await api('POST', '/invitations/accept', { token: invitation.token, body: { invitation_token: invitation.token } })).status).toBe(400);
    expect((await api('POST', '/invitations/accept', { token: person.token, body: {} })).status).toBe(400);
    expect((await api('POST', '/invitations/accept', { token: person.token, body: { invitation_token: 'inv_short' } })).status).toBe(400);
    const unknown = `inv_${'A'.repeat(40)}`;
    expect((await api('POST', '/invitations/accept', { token: person.token, body: { invitation_token: unknown } })).status).toBe(401);
    const [row] = await database().select().from(invitations).where(eq(invitations.id, invitation.id));
    expect(row!.status).toBe('pending');
  });
});

describe('a key an administrator made for someone does not prove who they are (invariant 3)', () => {
  it('an administrator of A and C cannot accept C’s invitation for a person with the key A minted for them', async () => {
    const a = await createNetworkRow();
    const c = await createNetworkRow();
    const admin = await personKey([
      { networkId: a.id, role: 'administrator' },
      { networkId: c.id, role: 'administrator' },
    ]);
    const person = await personKey([{ networkId: a.id, role: 'read_only' }]);
    const [membership] = await database()
      .select()
      .from(memberships)
      .where(and(eq(memberships.networkId, a.id), eq(memberships.userId, person.person.id)));
    const minted = await api<{ token: string }>('POST', `/networks/${a.id}/members/${membership!.id}/keys`, {
      token: admin.token,
      body: { key_name: 'for P' },
    });
    expect(minted.status).toBe(201);
    // Removed again: the minted key keeps no scope but still authenticates.
    expect((await api('DELETE', `/networks/${a.id}/members/${membership!.id}`, { token: admin.token })).status).toBe(200);
    const invitation = await invite(c.id, admin.token, { email: person.person.email, role: 'administrator' });
    const res = await api<Problem>('POST', '/invitations/accept', { token: minted.body.token, body: { invitation_token: invitation.token } });
    expect(res.status).toBe(403);
    expect(res.body.detail).toMatch(/does not prove who you are/);
    // A key the person made themselves does.
    const own = await api<{ token: string }>('POST', '/apikeys', { token: person.token, body: { key_name: 'mine', scopes: [] } });
    expect((await api('POST', '/invitations/accept', { token: own.body.token, body: { invitation_token: invitation.token } })).status).toBe(201);
  });
});

/** The invitation is among the network's revoked ones (as `token` lists them), and accepting it is a 409. */
async function expectRevoked(networkId: string, token: string, invitation: { id: string; token: string }) {
  const listed = await api<Page<Invitation>>('GET', `/networks/${networkId}/invitations?status=revoked`, { token });
  expect(listed.body.items.map((i) => i.id)).toContain(invitation.id);
  expect((await accept(invitation.token, {})).status).toBe(409);
}

describe('an invitation carries its sender’s authority', () => {
  it('is revoked when its sender is removed or demoted, and cannot be accepted after (409)', async () => {
    const network = await createNetworkRow();
    const owner = await adminOf(network.id);
    for (const change of ['remove', 'demote'] as const) {
      const sender = await personKey([{ networkId: network.id, role: 'administrator' }]);
      const [membership] = await database()
        .select()
        .from(memberships)
        .where(and(eq(memberships.networkId, network.id), eq(memberships.userId, sender.person.id)));
      const invitation = await invite(network.id, sender.token, { role: 'administrator' });
      const path = `/networks/${network.id}/members/${membership!.id}`;
      const res =
        change === 'remove'
          ? await api('DELETE', path, { token: owner.token })
          : await api('PATCH', path, { token: owner.token, body: { role: 'read_only' } });
      expect(res.status).toBe(200);
      await expectRevoked(network.id, owner.token, invitation);
    }
  });

  it('is refused (409) once its sender no longer administers the network, however that came about', async () => {
    const network = await createNetworkRow();
    const sender = await adminOf(network.id);
    const invitation = await invite(network.id, sender.token);
    // Behind the API's back, so nothing revoked the invitation: acceptance checks the sender itself.
    await database().update(memberships).set({ role: 'read_only' }).where(eq(memberships.userId, sender.person.id));
    const res = await accept(invitation.token, {});
    expect(res.status).toBe(409);
    expect((res.body as unknown as Problem).detail).toMatch(/no longer administers/);
  });

  it('dies with the key that sent it: revoking that key revokes its pending invitations (audited), and they cannot be accepted (409)', async () => {
    const network = await createNetworkRow();
    const owner = await adminOf(network.id);
    const sender = await adminOf(network.id);
    const pending = await invite(network.id, sender.token, { role: 'administrator' });
    const keyId = (await api<{ key_id: string }>('GET', '/me', { token: sender.token })).body.key_id;
    expect((await api('DELETE', `/networks/${network.id}/apikeys/${keyId}`, { token: owner.token })).status).toBe(200);
    await expectRevoked(network.id, owner.token, pending);
    const audited = await database()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.networkId, network.id), eq(auditLog.targetId, pending.id), eq(auditLog.action, 'invitation.revoked')));
    expect(audited.map((a) => (a.data as { reason: string }).reason)).toEqual(['api_key_revoked']);
  });

  it('is refused (409) when the sending key was revoked behind the API’s back: acceptance checks the key itself', async () => {
    const network = await createNetworkRow();
    const sender = await adminOf(network.id);
    const pending = await invite(network.id, sender.token);
    await database()
      .update(apiKeys)
      .set({ revokedAt: sql`now()` })
      .where(eq(apiKeys.id, sender.key.id));
    const res = await accept(pending.token, {});
    expect(res.status).toBe(409);
    expect((res.body as unknown as Problem).detail).toMatch(/has been revoked or has expired/);
  });

  it('survives a rotation of the key that sent it (the replacement carries its authority), and dies when the replacement is revoked', async () => {
    const network = await createNetworkRow();
    const sender = await adminOf(network.id);
    const [kept, doomed] = [await invite(network.id, sender.token), await invite(network.id, sender.token)];
    const rotated = await api<{ id: string; token: string }>('POST', `/apikeys/${sender.key.id}/rotate`, { token: sender.token, body: {} });
    expect(rotated.status).toBe(201);
    // The old key stopped at once (no grace): its invitation stands on the key that replaced it.
    expect((await api('GET', '/me', { token: sender.token })).status).toBe(401);
    expect((await accept(kept.token, {})).status).toBe(201);
    expect((await api('DELETE', `/apikeys/${rotated.body.id}`, { token: rotated.body.token })).status).toBe(200);
    await expectRevoked(network.id, (await adminOf(network.id)).token, doomed);
  });

  it('dies on a network its key is taken out of, and stands on the networks it keeps', async () => {
    const { a, b, adminA: ownerOfA, both: sender } = await keyOnTwoNetworks({ a: 'administrator', b: 'administrator' });
    const [onA, onB] = [await invite(a.id, sender.token), await invite(b.id, sender.token)];
    // A's administrator cannot revoke a key that reaches B: it takes the key out of A only.
    expect((await api('DELETE', `/networks/${a.id}/apikeys/${sender.key.id}`, { token: ownerOfA.token })).status).toBe(200);
    expect((await accept(onA.token, {})).status).toBe(409);
    expect((await accept(onB.token, {})).status).toBe(201);
  });

  it('is revoked with the service account that sent it', async () => {
    const network = await createNetworkRow();
    const owner = await adminOf(network.id);
    const account = await serviceAccountKey(network.id, 'administrator');
    const invitation = await invite(network.id, account.token);
    expect((await api('DELETE', `/networks/${network.id}/service-accounts/${account.serviceAccount.id}`, { token: owner.token })).status).toBe(200);
    expect((await accept(invitation.token, {})).status).toBe(409);
  });
});

describe('Idempotency-Key on accepting an invitation', () => {
  it('replays a lost answer, with the same key, to the same invitation token or API key', async () => {
    const network = await createNetworkRow();
    const admin = await adminOf(network.id);
    const invitation = await invite(network.id, admin.token);
    const headers = { 'idempotency-key': `accept-${invitation.id}` };
    const first = await accept(invitation.token, {}, headers);
    expect(first.status).toBe(201);
    const again = await accept(invitation.token, {}, headers);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.api_key.token).toBe(first.body.api_key.token);
    // Without the key a retry is a second acceptance: 409.
    expect((await accept(invitation.token, {})).status).toBe(409);

    const person = await personKey([{ networkId: (await createNetworkRow()).id, role: 'read_only' }]);
    const second = await invite(network.id, admin.token, { email: person.person.email });
    const body = { invitation_token: second.token };
    const proved = await api<Accepted>('POST', '/invitations/accept', { token: person.token, body, headers: { 'idempotency-key': 'k1' } });
    expect(proved.status).toBe(201);
    const replay = await api<Accepted>('POST', '/invitations/accept', { token: person.token, body, headers: { 'idempotency-key': 'k1' } });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.api_key.token).toBe(proved.body.api_key.token);
  });
});

describe('failed invitation tokens and the per-address failed-authentication limit', () => {
  /** A server of its own with a small limit, so the shared one stays unthrottled. */
  let server: ServerProcess;
  let drop: () => Promise<void>;
  const superToken = generateApiKeyToken('test');

  beforeAll(async () => {
    const db = await createTestDatabase('inv');
    drop = db.drop;
    server = await startServerProcess({
      ...API_ONLY,
      DATABASE_URL: db.url,
      BOOTSTRAP_SUPERUSER_TOKEN: superToken,
      WORKER: 'off',
      AUTH_FAILURE_LIMIT_PER_MINUTE: '3',
    });
  });

  afterAll(async () => {
    await server?.stop();
    await drop?.();
  });

  it('counts unknown invitation tokens like bad API keys: 429 with Retry-After once spent', async () => {
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof api>> | undefined;
    for (let i = 0; i < 5; i++) {
      const res = await api('POST', '/invitations/accept', { token: `inv_${String(i).repeat(40)}`, baseUrl: server.url });
      statuses.push(res.status);
      if (res.status === 429) limited ??= res;
    }
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses.slice(3)).toEqual([429, 429]);
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
