import { eq } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { campaigns } from '@/db/schema';
import { conflict, notFound } from '@/server/errors';
import { assertCampaignTerms, assertScriptHasRequiredLines } from './campaign-rules';
import { findCampaign, type CampaignRow } from './find-campaigns';
import type { CampaignStatus } from '@/domain/campaign-transitions';
import { assertCampaignTransition } from './transitions';
import { versionToWrite, modifiedConcurrently, updateVersioned } from '@/server/services/optimistic-lock';
import { assertFlightsInside } from '@/server/services/flights/flight-rules';

export interface CampaignChanges {
  name?: string;
  script?: string;
  talkingPoints?: string[];
  requiredLines?: string[];
  status?: CampaignStatus;
  startsAt?: Date | null;
  endsAt?: Date | null;
  budgetCents?: number | null;
  currency?: string | null;
  competitiveSeparation?: boolean;
}

/**
 * Optimistically locked update. A status change must be a transition the
 * state machine allows (else 409 naming from and to); an archived campaign is
 * final and cannot be changed at all. Cross-field rules — the dates, the
 * budget's currency, the script's required lines — are checked on the values
 * the update would leave. A request that changes nothing answers the
 * campaign as it is.
 */
export async function updateCampaign({
  tx,
  ...input
}: {
  tx: Tx;
  networkId: string;
  campaignId: string;
  changes: CampaignChanges;
  expectedVersion: number | undefined;
}): Promise<CampaignRow> {
  // Locked (as the UPDATE would lock it) before its flights are checked against new dates: a flight's write share-locks it.
  const current = await findCampaign({ db: tx, networkId: input.networkId, campaignId: input.campaignId, lock: 'no key update' });
  if (!current) throw notFound('Campaign');
  const version = versionToWrite('Campaign', current.version, input.expectedVersion);
  const { changes } = input;
  if (Object.keys(changes).length === 0) return current;
  // The transition check first, so a refused status change always names from and to.
  if (changes.status) assertCampaignTransition(current.status, changes.status);
  if (current.status === 'archived') throw conflict('This campaign is archived and can no longer be changed.');
  const next = {
    startsAt: changes.startsAt !== undefined ? changes.startsAt : current.startsAt,
    endsAt: changes.endsAt !== undefined ? changes.endsAt : current.endsAt,
    budgetCents: changes.budgetCents !== undefined ? changes.budgetCents : current.budgetCents,
    currency: changes.currency !== undefined ? changes.currency : current.currency,
  };
  assertCampaignTerms(next);
  if (changes.script !== undefined || changes.requiredLines !== undefined) {
    assertScriptHasRequiredLines({ script: changes.script ?? current.script, requiredLines: changes.requiredLines ?? current.requiredLines });
  }
  if (changes.startsAt !== undefined || changes.endsAt !== undefined) {
    await assertFlightsInside({ tx, networkId: current.networkId, campaignId: current.id, startsAt: next.startsAt, endsAt: next.endsAt });
  }
  const [row] = await updateVersioned({
    tx,
    table: campaigns,
    networkId: current.networkId,
    set: changes,
    where: eq(campaigns.id, current.id),
    version,
  }).returning();
  if (!row) throw modifiedConcurrently('Campaign');
  return row;
}
