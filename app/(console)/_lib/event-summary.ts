/** Names of the network's campaigns and podcasts, by id (what the overview has loaded). */
export interface EventNames {
  campaigns: Map<string, string>;
  podcasts: Map<string, string>;
}

/** A sentence for an event of the log, and the console section (with its filter) that shows the resource. */
export interface EventSummary {
  text: string;
  /** Relative to the network: 'offers?campaign=…', 'campaigns/…', or undefined when nothing to open. */
  section?: string;
}

/** A short sentence naming the resources of an event (names, not ids), with where to see them. */
export function describeEvent(type: string, data: Record<string, unknown>, names: EventNames): EventSummary {
  const id = (key: string) => (typeof data[key] === 'string' ? (data[key] as string) : undefined);
  const quoted = (value: string | undefined) => (value ? `“${value}”` : undefined);
  const campaignId = id('campaign_id');
  const podcastId = id('podcast_id');
  const campaign = quoted(campaignId && names.campaigns.get(campaignId)) ?? 'a campaign';
  const podcast = quoted((podcastId && names.podcasts.get(podcastId)) || id('name')) ?? 'a podcast';
  const offers = campaignId ? `offers?campaign=${encodeURIComponent(campaignId)}` : 'offers';
  const creatives = id('offer_id') ? `creatives?offer=${encodeURIComponent(id('offer_id')!)}` : 'creatives';
  const consents = podcastId ? `podcasts/${encodeURIComponent(podcastId)}/voice-consent` : 'podcasts';
  switch (type) {
    case 'optin.completed':
      return { text: `${podcast.replace(/^a /, 'A ')} opted in to ads${id('host_name') ? ` (host ${id('host_name')})` : ''}`, section: 'podcasts' };
    case 'offer.accepted':
      return { text: `Offer of ${campaign} to ${podcast} accepted — its creative is generating`, section: offers };
    case 'offer.rejected':
      return { text: `Offer of ${campaign} to ${podcast} rejected${id('reason') ? `: ${id('reason')}` : ''}`, section: offers };
    case 'creative.ready':
      return { text: `Creative of ${campaign} on ${podcast} is made and waits for approval`, section: creatives };
    case 'creative.approved':
      return {
        text: `Creative of ${campaign} on ${podcast} approved by ${id('reviewed_by') === 'host' ? 'the host' : 'an administrator'}`,
        section: creatives,
      };
    case 'creative.changes_requested':
      return {
        text: `Changes requested to the creative of ${campaign} on ${podcast} by ${id('reviewed_by') === 'host' ? 'the host' : 'an administrator'}`,
        section: creatives,
      };
    case 'voice_consent.granted':
      return { text: `${id('host_name') ?? 'The host'} granted voice consent for ${podcast}`, section: consents };
    case 'voice_consent.revoked':
      return {
        text: `Voice consent for ${podcast} ${id('previous_status') === 'pending' ? 'request withdrawn' : 'revoked'} by ${id('revoked_by') === 'host' ? 'the host' : 'an administrator'}`,
        section: consents,
      };
    case 'creative.failed':
      return { text: `Creative of ${campaign} on ${podcast} failed to generate`, section: creatives };
    case 'flight.goal_reached':
    case 'flight.underdelivering': {
      const count = (key: string) => (typeof data[key] === 'number' ? (data[key] as number).toLocaleString('en-US') : '?');
      const flight =
        id('flight_id') && campaignId ? `campaigns/${encodeURIComponent(campaignId)}/flights/${encodeURIComponent(id('flight_id')!)}` : undefined;
      return type === 'flight.goal_reached'
        ? { text: `A flight of ${campaign} reached its goal: ${count('delivered')} of ${count('goal')} impressions`, section: flight }
        : {
            text: `A flight of ${campaign} is behind pace: ${count('delivered')} impressions, ${count('expected_to_date')} expected by now`,
            section: flight,
          };
    }
    case 'invitation.accepted':
      return { text: `${id('email') ?? 'Someone'} joined as ${(id('role') ?? 'member').replace('_', ' ')}`, section: 'members' };
    default: {
      const ids = Object.entries(data)
        .filter(([, v]) => typeof v === 'string')
        .map(([k, v]) => `${k}: ${String(v)}`);
      return { text: ids.slice(0, 2).join(', ') || 'No details' };
    }
  }
}
