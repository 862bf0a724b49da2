/** A short sentence for an event of the log, from its type and the ids in its data. */
export function describeEvent(type: string, data: Record<string, unknown>): string {
  const id = (key: string) => (typeof data[key] === 'string' ? (data[key] as string) : undefined);
  switch (type) {
    case 'optin.completed':
      return `${id('name') ? `“${id('name')}”` : `Podcast ${id('podcast_id') ?? ''}`} opted in to ads${id('host_name') ? ` (host ${id('host_name')})` : ''}`;
    case 'offer.accepted':
      return `Offer ${id('offer_id') ?? ''} accepted${id('creative_id') ? ` — creative ${id('creative_id')} generating` : ''}`;
    case 'offer.rejected':
      return `Offer ${id('offer_id') ?? ''} rejected`;
    case 'creative.ready':
      return `Creative ${id('creative_id') ?? ''} is ready to play`;
    case 'creative.failed':
      return `Creative ${id('creative_id') ?? ''} failed to generate`;
    case 'invitation.accepted':
      return `${id('email') ?? 'Someone'} joined as ${(id('role') ?? 'member').replace('_', ' ')}`;
    default: {
      const ids = Object.entries(data)
        .filter(([, v]) => typeof v === 'string')
        .map(([k, v]) => `${k}: ${String(v)}`);
      return ids.slice(0, 2).join(', ') || 'No details';
    }
  }
}
