import { networkPath } from './network';

/*
 * Where the console shows an object, from its id's prefix (db/ids.ts): the event log and the audit
 * log name objects by id only, and link each to its page, or to its sheet on its list
 * (useOpenObject's parameter), so a reader goes from "what happened" to the thing it happened to.
 */
const PLACES: Record<string, { kind: string; section: string; param?: string; own?: true }> = {
  off: { kind: 'Offer', section: 'offers', param: 'offer' },
  crv: { kind: 'Creative', section: 'creatives', param: 'creative' },
  cmp: { kind: 'Campaign', section: 'campaigns', own: true },
  pod: { kind: 'Podcast', section: 'podcasts' },
  // A consent's page is its podcast's (podcasts/{podcastId}/voice-consent), which the id alone does not name.
  vcn: { kind: 'Voice consent', section: 'podcasts' },
  adv: { kind: 'Advertiser', section: 'advertisers' },
  key: { kind: 'API key', section: 'api-keys', param: 'key' },
  mem: { kind: 'Member', section: 'members', param: 'member' },
  ivt: { kind: 'Invitation', section: 'members' },
  sa: { kind: 'Service account', section: 'service-accounts' },
  whk: { kind: 'Webhook', section: 'webhooks', own: true },
  evt: { kind: 'Event', section: 'events', param: 'event' },
  net: { kind: 'Network', section: '' },
};

export interface ObjectLink {
  /** What it is, for people: "Offer". */
  kind: string;
  href: string;
}

/** The console's link to the object with this id, or null for ids it has no page for (a person's usr_…). */
export function objectLink(networkId: string, id: string): ObjectLink | null {
  const prefix = /^([a-z]+)_/.exec(id)?.[1];
  const place = prefix ? PLACES[prefix] : undefined;
  if (!place) return null;
  const section = place.own ? `${place.section}/${encodeURIComponent(id)}` : place.section;
  const query = place.param ? `?${new URLSearchParams({ [place.param]: id }).toString()}` : '';
  return { kind: place.kind, href: `${networkPath(networkId, section)}${query}` };
}

/** The ids an event's data names (its `*_id` fields), in the data's order, each with its link. */
export function linkedIds(networkId: string, data: Record<string, unknown>): Array<ObjectLink & { field: string; id: string }> {
  const links: Array<ObjectLink & { field: string; id: string }> = [];
  for (const [field, value] of Object.entries(data)) {
    if (!field.endsWith('_id') || typeof value !== 'string') continue;
    const link = objectLink(networkId, value);
    if (link) links.push({ ...link, field, id: value });
  }
  return links;
}
