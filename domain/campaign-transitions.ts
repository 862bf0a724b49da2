import type { CAMPAIGN_STATUSES } from '@/domain/statuses';

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
