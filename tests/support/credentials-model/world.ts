/**
 * Each run's starting world, built through the API with the operator's bootstrap
 * key: networks A, B, C — in a live deployment (service.ts) A and B live and C a test
 * network, so that people and keys meet both modes; five persons who joined by accepting
 * invitations (their tokens read from the mailbox); two service accounts; and the run's own
 * super_user key (and, live, a test one: the operator's sandbox key), which the commands may use,
 * rotate or revoke (the bootstrap key is never a target, so the next run can start).
 */
import { randomBytes } from 'node:crypto';
import { post, send, violation, type AcceptedView, type KeyView, type Real, type Request } from './http';
import { addKey, applyAccept, emptyModel, newKeySpec, tokenMode, type Invitation, type Mode, type Model, type Relaxation, type Role } from './model';
import { OPERATOR_EMAIL } from '@/server/services/keys/bootstrap';

const NETWORKS = ['A', 'B', 'C'] as const;
/** Each network's mode in a live deployment; under APP_ENV=test every network is a test one. */
const LIVE_DEPLOYMENT_MODES: Record<(typeof NETWORKS)[number], Mode> = { A: 'live', B: 'live', C: 'test' };

type Roster = Array<{ label: string; memberships: Array<[(typeof NETWORKS)[number], Role]> }>;

/**
 * Who joins where: every network has an administrator, A has two (so one can be demoted
 * or removed). `shared`: three persons belong to two networks each — dave to a live one
 * and the test one; `separate`: one network each (CREDENTIALS_MODEL_WORLD, to look at holes
 * that need no shared member).
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

/** A world key's mode, as its token and view say it, is the one the model predicts. */
function modeAsPredicted(what: string, view: KeyView, mode: Mode): void {
  if (tokenMode(view.token!) !== mode || view.environment !== mode) {
    throw violation(`building the world: ${what} must be a ${mode} key; it is ${view.environment} (${view.token!.slice(0, 8)}…)`);
  }
}

/** An invitation's token: in its answer in test mode, else read from the invitee's mailbox. */
export async function invitationToken(real: Real, invitation: { token?: string | undefined; email_id: string }): Promise<string> {
  return invitation.token ?? real.mail.invitationToken(invitation.email_id);
}

export async function buildWorld(real: Real, kind: WorldKind, relax: ReadonlySet<Relaxation>): Promise<Model> {
  const tag = randomBytes(4).toString('hex');
  const appMode = tokenMode(real.bootstrapToken) ?? 'test';
  const model = emptyModel(tag, relax, appMode);
  const boot = real.bootstrapToken;
  const operator = { kind: 'person', label: 'op' } as const;
  const superUser = { superUser: true, scopes: {}, mode: appMode };
  const modeOf = (label: (typeof NETWORKS)[number]) => (appMode === 'live' ? LIVE_DEPLOYMENT_MODES[label] : 'test');

  // The requests run side by side; the model is filled in a fixed order afterwards, so
  // owners and keys keep their places from run to run (picks depend on them).
  const [operatorKey, networks] = await Promise.all([
    created<KeyView>(real, 'the run’s super_user key', post('/apikeys', boot, { key_name: `operator ${tag}`, super_user: true })),
    Promise.all(
      NETWORKS.map((label) =>
        created<{ id: string; mode: Mode; max_key_lifetime_days: number | null }>(
          real,
          `network ${label}`,
          post('/networks', boot, { name: `credentials model ${tag} ${label}`, mode: modeOf(label) }),
        ),
      ),
    ),
  ]);
  model.persons.push({ label: 'op', email: OPERATOR_EMAIL, userId: operatorKey.owner.id, operator: true });
  // Made by the bootstrap key for its own owner: it proves the operator's identity.
  const made = { creatorAccess: superUser, provesIdentity: true };
  const operatorSpec = newKeySpec(model, operator, true, {});
  modeAsPredicted('the run’s super_user key', operatorKey, operatorSpec.mode);
  addKey(model, { id: operatorKey.id, token: operatorKey.token!, spec: operatorSpec, made, origin: 'the run’s super_user key' });
  NETWORKS.forEach((label, i) => {
    const network = networks[i]!;
    if (network.mode !== modeOf(label))
      throw violation(`building the world: network ${label} must be a ${modeOf(label)} network, not ${network.mode}`);
    model.networks.push({ id: network.id, label, mode: network.mode, maxKeyLifetimeDays: network.max_key_lifetime_days });
  });
  const networkId = (label: string) => model.networks.find((n) => n.label === label)!.id;

  const testNetworks = model.networks.filter((n) => n.mode === 'test');
  const sandboxScopes = Object.fromEntries(testNetworks.map((n) => [n.id, 'administrator' as const]));
  const [joined, accounts, sandboxKey] = await Promise.all([
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
    appMode === 'live'
      ? created<KeyView>(
          real,
          'the run’s test super_user key',
          post('/apikeys', boot, {
            key_name: `operator sandbox ${tag}`,
            super_user: true,
            scopes: testNetworks.map((n) => ({ network_id: n.id, role: 'administrator' })),
          }),
        )
      : undefined,
  ]);

  ROSTERS[kind].forEach((entry, i) => {
    entry.memberships.forEach(([label, role], j) => {
      const { invitation, accepted } = joined[i]![j]!;
      const modelled: Invitation = {
        id: invitation.id,
        token: invitation.token,
        emailId: invitation.emailId,
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
      const origin = `${entry.label}’s key from joining ${label}`;
      modeAsPredicted(origin, accepted.api_key, spec.mode);
      addKey(model, { id: accepted.api_key.id, token: accepted.api_key.token!, spec, made, origin });
    });
  });

  SERVICE_ACCOUNTS.forEach((sa, i) => {
    const answer = accounts[i]!;
    model.serviceAccounts.push({ id: answer.id, label: sa.label, networkId: networkId(sa.network), role: sa.role, deleted: false });
    const spec = newKeySpec(model, { kind: 'serviceAccount', label: sa.label }, false, { [networkId(sa.network)]: sa.role });
    modeAsPredicted(`${sa.label}’s first key`, answer.api_key, spec.mode);
    // Made by the operator's key for another owner: it proves nothing about the account.
    addKey(model, {
      id: answer.api_key.id,
      token: answer.api_key.token!,
      spec,
      made: { creatorAccess: superUser, provesIdentity: false },
      origin: `${sa.label}’s first key`,
    });
  });

  // A live deployment's operator may keep a sandbox key: super_user, scoped to the test networks, so
  // a test key (sk_test_) that reaches test networks only and makes nothing live. Added last, so that
  // the other keys keep their labels and places.
  if (sandboxKey) {
    const spec = newKeySpec(model, operator, true, sandboxScopes);
    modeAsPredicted('the run’s test super_user key', sandboxKey, spec.mode);
    addKey(model, { id: sandboxKey.id, token: sandboxKey.token!, spec, made, origin: 'the run’s test super_user key' });
  }
  return model;
}

/**
 * Worlds built ahead, `depth` at a time. Building one is mostly waiting for mail (a network's
 * invitations leave one at a time, each a full SMTP exchange), so the next worlds are built while a
 * run goes on; each has its own networks, people and keys, which no other run's commands or
 * checks touch. `take` counts the time a run waited for its world (`ms.world` of its stats); the
 * builds' requests count in `builds`.
 */
export class WorldPool {
  private readonly ready: Array<Promise<Model>> = [];
  private closed = false;

  constructor(
    private readonly builder: Real,
    private readonly kind: WorldKind,
    private readonly relax: ReadonlySet<Relaxation>,
    private readonly depth: number,
  ) {
    this.fill(depth);
  }

  async take(real: Real): Promise<Model> {
    const started = Date.now();
    this.fill(1);
    const next = this.ready.shift()!;
    this.fill(this.depth);
    try {
      return await next;
    } finally {
      real.stats.ms.world += Date.now() - started;
    }
  }

  /** No more builds; waits for those under way (their worlds are never used). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled(this.ready.splice(0));
  }

  private fill(size: number): void {
    while (!this.closed && this.ready.length < size) {
      const world = buildWorld(this.builder, this.kind, this.relax);
      world.catch(() => {}); // a failed build fails the run that takes it; one never taken is not an unhandled rejection
      this.ready.push(world);
    }
  }
}

/**
 * One person joins their networks in order, invited by the operator to all of them at once: the
 * first invitation accepted with the token alone (a newcomer), the next ones with the key the
 * first gave (someone with an account proves it). Where the server does not take a key yet, the
 * world falls back to the token alone so that the commands can still run.
 */
async function joinNetworks(real: Real, email: string, memberships: Array<{ networkId: string; role: Role }>) {
  const invitations = await Promise.all(
    memberships.map(async ({ networkId, role }) => {
      const answer = await created<{ id: string; token?: string; email_id: string }>(
        real,
        `inviting ${email}`,
        post(`/networks/${networkId}/invitations`, real.bootstrapToken, { email, role }),
      );
      return { id: answer.id, token: await invitationToken(real, answer), emailId: answer.email_id };
    }),
  );
  const joined: Array<{ invitation: { id: string; token: string; emailId: string }; accepted: AcceptedView }> = [];
  for (const invitation of invitations) {
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
