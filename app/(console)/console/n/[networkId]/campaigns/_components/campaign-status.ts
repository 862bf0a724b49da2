import type { Campaign } from '@/server/routers/campaigns/campaign.types';

export type CampaignStatus = Campaign['status'];

/** The button for moving a campaign to a status, and what it means. */
export const TRANSITION_ACTIONS: Record<CampaignStatus, { label: (from: CampaignStatus) => string; help: string }> = {
  draft: { label: () => 'Back to draft', help: '' },
  active: {
    label: (from) => (from === 'paused' ? 'Resume' : 'Activate'),
    help: 'Active campaigns can be offered to podcasts.',
  },
  paused: { label: () => 'Pause', help: 'Paused campaigns stay in the network but cannot be offered.' },
  completed: { label: () => 'Complete', help: 'The campaign has run its course; it can only be archived afterwards.' },
  archived: { label: () => 'Archive', help: 'Archived is final: the campaign can no longer be changed.' },
};

export const STATUS_HELP: Record<CampaignStatus, string> = {
  draft: 'Being prepared. It can be offered to podcasts, activated or archived.',
  active: 'Running. It can be offered to podcasts, paused, completed or archived.',
  paused: 'On hold. It cannot be offered until it is resumed.',
  completed: 'Finished. It can only be archived.',
  archived: 'Archived. It can no longer be changed.',
};
