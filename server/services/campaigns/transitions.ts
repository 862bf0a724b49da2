import type { CAMPAIGN_STATUSES } from '@/db/schema/statuses';
import { conflict } from '@/server/errors';

export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** Statuses a campaign may be created in; the rest are reached by transitions. */
export const INITIAL_CAMPAIGN_STATUSES = ['draft', 'active'] as const satisfies readonly CampaignStatus[];

/**
 * `draft → active ↔ paused → completed | archived`, made precise: a draft is
 * started or thrown away; a running campaign pauses, resumes, completes or is
 * archived; a completed campaign can only be archived; archived is final.
 */
export const CAMPAIGN_TRANSITIONS: Record<CampaignStatus, readonly CampaignStatus[]> = {
  draft: ['active', 'archived'],
  active: ['paused', 'completed', 'archived'],
  paused: ['active', 'completed', 'archived'],
  completed: ['archived'],
  archived: [],
};

/** Refuse (409) a move the state machine does not allow; staying in the same status is not a move. */
export function assertCampaignTransition(from: CampaignStatus, to: CampaignStatus): void {
  if (from === to || CAMPAIGN_TRANSITIONS[from].includes(to)) return;
  const allowed = CAMPAIGN_TRANSITIONS[from];
  throw conflict(
    `A campaign cannot go from ${from} to ${to}. ` +
      (allowed.length ? `From ${from} it can go to: ${allowed.join(', ')}.` : `An ${from} campaign cannot change status.`),
  );
}
