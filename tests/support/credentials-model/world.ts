/**
 * Each run's starting world, built through the API with the operator's bootstrap
 * key: networks A, B, C; five persons who joined by accepting invitations; two
 * service accounts; and the run's own super_user key, which the commands may use,
 * rotate or revoke (the bootstrap key is never a target, so the next run can start).
 */
import { randomBytes } from 'node:crypto';
import { post, send, violation, type AcceptedView, type KeyView, type Real, type Request } from './http';
import { addKey, applyAccept, emptyModel, type Invitation, type Model, type Relaxation, type Role } from './model';
import { OPERATOR_EMAIL } from '@/server/services/keys/bootstrap';

const NETWORKS = ['A', 'B', 'C'] as const;

type Roster = Array<{ label: string; memberships: Array<[(typeof NETWORKS)[number], Role]> }>;

/**
 * Who joins where: every network has an administrator, A has two (so one can be demoted
 * or removed). `shared`: three persons belong to two networks each; `separate`: one
 * network each (CREDENTIALS_MODEL_WORLD, to look at holes that need no shared member).
 */
export const ROSTERS: Record<'shared' | 'separate', Roster> = {
  shared: [
    {
      label: 'alice',
      memberships: [
        ['A', 'administrator'],
        ['B', 'read_only'],
      ],
    },
    {
      label: 'bob',
      memberships: [
        ['A', 'read_only'],
        ['B', 'administrator'],
      ],
    },
    { label: 'carol', memberships: [['A', 'administrator']] },
    {
      label: 'dave',
      memberships: [
        ['B', 'administrator'],
        ['C', 'administrator'],
      ],
    },
    { label: 'erin', memberships: [['C', 'read_only']] },
  ],
  separate: [
    { label: 'alice', memberships: [['A', 'administrator']] },
    { label: 'bob', memberships: [['B', 'administrator']] },
    { label: 'carol', memberships: [['A', 'administrator']] },
    { label: 'dave', memberships: [['C', 'administrator']] },
    { label: 'erin', memberships: [['A', 'read_only']] },
  ],
};
export type WorldKind = keyof typeof ROSTERS;

const SERVICE_ACCOUNTS: Array<{ label: string; network: (typeof NETWORKS)[number]; role: Role }> = [
  { label: 'robotA', network: 'A', role: 'read_only' },
  { label: 'robotB', network: 'B', role: 'administrator' },
];

/** Second memberships of the world accepted with the token alone, because the server took no key (reported). */
export const setupNotes = { tokenFallbacks: 0 };

async function created<T>(real: Real, what: string, request: Request): Promise<T> {
  const answer = await send(real, request);
  if (answer.status !== 201) throw violation(`building the world: ${what} must answer 201`, answer);
  return answer.body as T;
}

export async function buildWorld(real: Real, kind: WorldKind, relax: ReadonlySet<Relaxation>): Promise<Model> {
  const started = Date.now();
  const tag = randomBytes(4).toString('hex');
  const model = emptyModel(tag, relax);
  const boot = real.bootstrapToken;
  const operator = { kind: 'person', label: 'op' } as const;
  const superUser = { superUser: true, scopes: {} };

  // The requests run side by side; the model is filled in a fixed order afterwards, so
  // owners and keys keep their places from run to run (picks depend on them).
  const [operatorKey, networks] = await Promise.all([
    created<KeyView>(real, 'the run’s super_user key', post('/apikeys', boot, { key_name: `operator ${tag}`, super_user: true })),
    Promise.all(
      NETWORKS.map((label) =>
        created<{ id: string }>(real, `network ${label}`, post('/networks', boot, { name: `credentials model ${tag} ${label}` })),
      ),
    ),
  ]);
  model.persons.push({ label: 'op', email: OPERATOR_EMAIL, userId: operatorKey.owner.id, operator: true });
  // Made by the bootstrap key for its own owner: it proves the operator's identity.
  const made = { creatorAccess: superUser, provesIdentity: true };
  addKey(model, {
    id: operatorKey.id,
    token: operatorKey.token!,
    spec: { owner: operator, superUser: true, granted: {} },
    made,
    origin: 'the run’s super_user key',
  });
  NETWORKS.forEach((label, i) => model.networks.push({ id: networks[i]!.id, label, maxKeyLifetimeDays: null }));
  const networkId = (label: string) => model.networks.find((n) => n.label === label)!.id;

  const [joined, accounts] = await Promise.all([
    Promise.all(
      ROSTERS[kind].map((entry) =>
        joinNetworks(
          real,
          `${entry.label}-${tag}@example.test`,
          entry.memberships.map(([n, role]) => ({ networkId: networkId(n), role })),
        ),
      ),
    ),
    Promise.all(
      SERVICE_ACCOUNTS.map((sa) =>
        created<{ id: string; api_key: KeyView }>(
          real,
          `service account ${sa.label}`,
          post(`/networks/${networkId(sa.network)}/service-accounts`, boot, { name: sa.label, role: sa.role }),
        ),
      ),
    ),
  ]);

  ROSTERS[kind].forEach((entry, i) => {
    entry.memberships.forEach(([label, role], j) => {
      const { invitation, accepted } = joined[i]![j]!;
      const modelled: Invitation = {
        id: invitation.id,
        token: invitation.token,
        label: `invitation of ${entry.label} to ${label}`,
        networkId: networkId(label),
        email: `${entry.label}-${tag}@example.test`,
        role,
        sender: operator,
        senderKeyId: undefined,
        status: 'pending',
        contested: false,
      };
      model.invitations.push(modelled);
      const { spec, made } = applyAccept(model, modelled, { userId: accepted.member.user.id, memberId: accepted.member.id });
      addKey(model, { id: accepted.api_key.id, token: accepted.api_key.token!, spec, made, origin: `${entry.label}’s key from joining ${label}` });
    });
  });

  SERVICE_ACCOUNTS.forEach((sa, i) => {
    const answer = accounts[i]!;
    model.serviceAccounts.push({ id: answer.id, label: sa.label, networkId: networkId(sa.network), role: sa.role, deleted: false });
    const spec = { owner: { kind: 'serviceAccount', label: sa.label } as const, superUser: false, granted: { [networkId(sa.network)]: sa.role } };
    // Made by the operator's key for another owner: it proves nothing about the account.
    addKey(model, {
      id: answer.api_key.id,
      token: answer.api_key.token!,
      spec,
      made: { creatorAccess: superUser, provesIdentity: false },
      origin: `${sa.label}’s first key`,
    });
  });
  real.stats.ms.world += Date.now() - started;
  return model;
}

/**
 * One person joins their networks in order, invited by the operator: the first
 * invitation accepted with the token alone (a newcomer), the next ones with the key the
 * first gave (someone with an account proves it). Where the server does not take a key
 * yet, the world falls back to the token alone so that the commands can still run.
 */
async function joinNetworks(real: Real, email: string, memberships: Array<{ networkId: string; role: Role }>) {
  const joined: Array<{ invitation: { id: string; token: string }; accepted: AcceptedView }> = [];
  for (const { networkId, role } of memberships) {
    const invitation = await created<{ id: string; token: string }>(
      real,
      `inviting ${email}`,
      post(`/networks/${networkId}/invitations`, real.bootstrapToken, { email, role }),
    );
    const firstKey = joined[0]?.accepted.api_key.token;
    let accepted: AcceptedView | undefined;
    if (firstKey) {
      const withKey = await send(real, post('/invitations/accept', firstKey, { invitation_token: invitation.token }));
      if (withKey.status === 201) accepted = withKey.body as AcceptedView;
      else setupNotes.tokenFallbacks += 1;
    }
    accepted ??= await created<AcceptedView>(real, `${email} accepting`, post('/invitations/accept', invitation.token, {}));
    joined.push({ invitation, accepted });
  }
  return joined;
}
