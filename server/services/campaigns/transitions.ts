import { CAMPAIGN_TRANSITIONS, type CampaignStatus } from '@/domain/campaign-transitions';
import { conflict } from '@/server/errors';

/** Refuse (409) a move the state machine does not allow (domain/campaign-transitions.ts); staying in the same status is not a move. */
export function assertCampaignTransition(from: CampaignStatus, to: CampaignStatus): void {
  if (from === to || CAMPAIGN_TRANSITIONS[from].includes(to)) return;
  const allowed = CAMPAIGN_TRANSITIONS[from];
  throw conflict(
    `A campaign cannot go from ${from} to ${to}. ` +
      (allowed.length ? `From ${from} it can go to: ${allowed.join(', ')}.` : `An ${from} campaign cannot change status.`),
  );
}
