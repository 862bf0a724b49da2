import { and, eq, gt, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Tx } from '@/db/client';
import { voiceConsents } from '@/db/schema';
import { badRequest, conflict, notFound } from '@/server/errors';
import { recordAudit } from '@/server/services/audit/record-audit';
import { recordEvent } from '@/server/services/events/record-event';
import { lockPodcast, resumeAwaitingCreatives, withdrawCreatives } from '@/server/services/creatives/consent-gate';
import { findVoiceConsent, linkWorks, voiceConsentStatus, type VoiceConsentRow } from './find-voice-consents';
import { consentStatement, CURRENT_STATEMENT_VERSION } from './statement';

/** The most withdrawn creatives an event names; `withdrawn_creatives` counts them all. */
const WITHDRAWN_IDS_IN_EVENT = 100;

/** The most of a user agent kept: enough to tell the browser and device, not an unbounded field. */
const USER_AGENT_MAX = 500;

export const keptUserAgent = (userAgent: string | undefined) => (userAgent ? userAgent.slice(0, USER_AGENT_MAX) : null);

/** The host's link no longer opens the consent: as for a token that never was (404). */
export const linkGone = () => notFound('Voice consent link');

/**
 * The conditional update every decision is (compare-and-set): it changes the row only while it is
 * still in the state `expected` says, so of two decisions racing on one consent exactly one wins.
 * The loser — its row changed between its read and its write — is told the state it found (409),
 * or 404 when the link ended meanwhile.
 */
async function compareAndSet({
  tx,
  consent,
  expected,
  set,
  stillLinked,
}: {
  tx: Tx;
  consent: VoiceConsentRow;
  expected: SQL;
  set: PgUpdateSetSource<typeof voiceConsents>;
  /** The host acts through the link: it must still work at the write. */
  stillLinked: boolean;
}): Promise<VoiceConsentRow> {
  const [row] = await tx
    .update(voiceConsents)
    .set({ ...set, updatedAt: sql`now()` })
    .where(
      and(
        eq(voiceConsents.networkId, consent.networkId),
        eq(voiceConsents.id, consent.id),
        expected,
        stillLinked ? gt(voiceConsents.linkExpiresAt, sql`now()`) : undefined,
      ),
    )
    .returning();
  if (row) return row;
  const now = await findVoiceConsent({ db: tx, networkId: consent.networkId, id: consent.id });
  if (!now || (stillLinked && !linkWorks(now))) throw linkGone();
  throw conflict(`This consent was ${voiceConsentStatus(now)} in the meantime; read it again.`);
}

const pendingStill = () => eq(voiceConsents.status, 'pending');
const grantedStill = () => and(eq(voiceConsents.status, 'granted'), or(isNull(voiceConsents.expiresAt), gt(voiceConsents.expiresAt, sql`now()`)))!;

/** The statement the host says they read: the current one (an older one → 409, one that never was → 400). */
function readStatement(version: number) {
  const statement = consentStatement(version);
  if (!statement) {
    throw badRequest(`statement_version ${version} is not a version of the consent statement.`, [
      { path: 'statement_version', message: `The current version is ${CURRENT_STATEMENT_VERSION}.` },
    ]);
  }
  if (statement.version !== CURRENT_STATEMENT_VERSION) {
    throw conflict(`The consent statement has changed since it was read (version ${CURRENT_STATEMENT_VERSION} is current): read it again.`);
  }
  return statement;
}

function assertDecidable(consent: VoiceConsentRow): void {
  const status = voiceConsentStatus(consent);
  if (status !== 'pending') throw conflict(`This consent is ${status}: only a pending request can be granted or refused.`);
}

/** What the host sends from the link to decide: the statement version they read, and their browser. */
interface HostDecision {
  tx: Tx;
  consent: VoiceConsentRow;
  statementVersion: number;
  userAgent: string | undefined;
}

/**
 * The host decides, from the link: pending → granted or refused, recorded with the statement they
 * read (version and SHA-256), when, and their browser's user agent — never their address. The
 * audit row (no key acted: the host's link did), and for a grant `voice_consent.granted` and the
 * creatives it lets start generating (consent-gate.ts), commit with it.
 */
async function decide({
  tx,
  consent,
  statementVersion,
  userAgent,
  decision,
}: HostDecision & { decision: 'granted' | 'refused' }): Promise<VoiceConsentRow> {
  assertDecidable(consent);
  const statement = readStatement(statementVersion);
  if (decision === 'granted') await lockPodcast({ tx, networkId: consent.networkId, podcastId: consent.podcastId });
  const decided = await compareAndSet({
    tx,
    consent,
    expected: pendingStill(),
    stillLinked: true,
    set: {
      status: decision,
      ...(decision === 'granted' ? { grantedAt: sql`now()` } : { refusedAt: sql`now()` }),
      statementVersion: statement.version,
      statementSha256: statement.sha256,
      decisionUserAgent: keptUserAgent(userAgent),
    },
  });
  if (decision === 'granted') {
    await resumeAwaitingCreatives({ tx, consent: decided });
    await recordEvent({
      tx,
      networkId: decided.networkId,
      type: 'voice_consent.granted',
      data: {
        consent_id: decided.id,
        podcast_id: decided.podcastId,
        host_name: decided.hostName,
        scope: decided.scope,
        advertiser_ids: decided.advertiserIds,
        expires_at: decided.expiresAt?.toISOString() ?? null,
        statement_version: statement.version,
        statement_sha256: statement.sha256,
      },
    });
  }
  await recordAudit({
    tx,
    networkId: decided.networkId,
    actorKeyId: null,
    action: `voice_consent.${decision}`,
    targetType: 'voice_consent',
    targetId: decided.id,
    data: { by: 'host', statement_version: statement.version, statement_sha256: statement.sha256 },
  });
  return decided;
}

/** The host grants: the consent covers its scope until it ends or is revoked. */
export const grantVoiceConsent = (input: HostDecision) => decide({ ...input, decision: 'granted' });

/** The host refuses: final for this request (the network may ask again with a new one). No event. */
export const refuseVoiceConsent = (input: HostDecision) => decide({ ...input, decision: 'refused' });

/**
 * Revoke: the host (from the link, a consent they granted) or an administrator (a pending request
 * or a granted consent). granted | pending → revoked, compare-and-set on the state read, with
 * `voice_consent.revoked` and the audit row. Revoking a granted consent withdraws the creatives made
 * under it that no other consent covers (consent-gate.ts: back to awaiting consent, audio deleted).
 */
export async function revokeVoiceConsent({
  tx,
  consent,
  by,
}: {
  tx: Tx;
  consent: VoiceConsentRow;
  by: { host: true; userAgent: string | undefined } | { host: false; actorKeyId: string };
}): Promise<VoiceConsentRow> {
  const previous = voiceConsentStatus(consent);
  const revocable = by.host ? previous === 'granted' : previous === 'granted' || previous === 'pending';
  if (!revocable) {
    throw conflict(
      by.host
        ? `This consent is ${previous}: only a consent you granted can be revoked.`
        : `This consent is ${previous}: only a pending request or a granted consent can be revoked.`,
    );
  }
  const revoked = await compareAndSet({
    tx,
    consent,
    expected: previous === 'granted' ? grantedStill() : and(pendingStill(), gt(voiceConsents.linkExpiresAt, sql`now()`))!,
    stillLinked: by.host,
    set: {
      status: 'revoked',
      revokedAt: sql`now()`,
      revokedBy: by.host ? 'host' : 'administrator',
      revokedByKeyId: by.host ? null : by.actorKeyId,
      revocationUserAgent: by.host ? keptUserAgent(by.userAgent) : null,
    },
  });
  const revokedBy = by.host ? ('host' as const) : ('administrator' as const);
  const withdrawn = previous === 'granted' ? await withdrawCreatives({ tx, consent: revoked }) : [];
  await recordEvent({
    tx,
    networkId: revoked.networkId,
    type: 'voice_consent.revoked',
    data: {
      consent_id: revoked.id,
      podcast_id: revoked.podcastId,
      revoked_by: revokedBy,
      previous_status: previous as 'pending' | 'granted',
      withdrawn_creative_ids: withdrawn.slice(0, WITHDRAWN_IDS_IN_EVENT),
      withdrawn_creatives: withdrawn.length,
    },
  });
  await recordAudit({
    tx,
    networkId: revoked.networkId,
    actorKeyId: by.host ? null : by.actorKeyId,
    action: 'voice_consent.revoked',
    targetType: 'voice_consent',
    targetId: revoked.id,
    data: { by: revokedBy, previous_status: previous, withdrawn_creatives: withdrawn.length },
  });
  return revoked;
}
