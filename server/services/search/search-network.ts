import { and, asc, desc, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Queryable } from '@/db/client';
import { advertisers, apiKeys, campaigns, podcasts, webhooks } from '@/db/schema';
import { networkKey } from '@/server/auth/key-access';

export type SearchResultType = 'campaign' | 'podcast' | 'advertiser' | 'api_key' | 'webhook';

export interface SearchHit {
  type: SearchResultType;
  id: string;
  name: string;
  /** A second line for people: a campaign's status, a podcast's host, a key's start, a webhook's URL. */
  detail: string | null;
}

/** `text` as a LIKE pattern that matches it anywhere, its own % _ and \ taken literally. */
export function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * How a row matches, best first: its id exactly, its name exactly (any case), a name that starts
 * with the text, then one that contains it; ties by name.
 */
function matching(id: PgColumn, name: PgColumn | SQL, q: string) {
  const pattern = containing(q);
  const prefix = pattern.slice(1);
  return {
    where: or(eq(id, q), sql`${name} ilike ${pattern}`)!,
    orderBy: [desc(sql`${id} = ${q}`), desc(sql`lower(${name}) = lower(${q})`), desc(sql`${name} ilike ${prefix}`), asc(name), asc(id)],
  };
}

/**
 * The network's objects whose name contains `q` (any case) or whose id is `q`, at most `take` of
 * each type: campaigns, podcasts (by name or host), advertisers, and — for administrators, who
 * alone may list them — API keys and webhooks (by description or URL). One statement per type, one
 * after another on one connection: a palette typing fast costs the pool one connection per search.
 */
export async function searchNetwork({
  db,
  networkId,
  q,
  take,
  administrator,
}: {
  db: Queryable;
  networkId: string;
  q: string;
  take: number;
  administrator: boolean;
}): Promise<SearchHit[]> {
  const hits: SearchHit[] = [];

  const c = matching(campaigns.id, campaigns.name, q);
  for (const row of await db
    .select({ id: campaigns.id, name: campaigns.name, status: campaigns.status })
    .from(campaigns)
    .where(and(eq(campaigns.networkId, networkId), c.where))
    .orderBy(...c.orderBy)
    .limit(take))
    hits.push({ type: 'campaign', id: row.id, name: row.name, detail: row.status });

  const podcastText = sql`(${podcasts.name} || ' ' || ${podcasts.hostName})`;
  const p = matching(podcasts.id, podcastText, q);
  for (const row of await db
    .select({ id: podcasts.id, name: podcasts.name, host: podcasts.hostName })
    .from(podcasts)
    .where(and(eq(podcasts.networkId, networkId), p.where))
    .orderBy(...matching(podcasts.id, podcasts.name, q).orderBy)
    .limit(take))
    hits.push({ type: 'podcast', id: row.id, name: row.name, detail: `Host: ${row.host}` });

  const a = matching(advertisers.id, advertisers.name, q);
  for (const row of await db
    .select({ id: advertisers.id, name: advertisers.name, website: advertisers.website })
    .from(advertisers)
    .where(and(eq(advertisers.networkId, networkId), isNull(advertisers.deletedAt), a.where))
    .orderBy(...a.orderBy)
    .limit(take))
    hits.push({ type: 'advertiser', id: row.id, name: row.name, detail: row.website });

  if (!administrator) return hits;

  const k = matching(apiKeys.id, apiKeys.name, q);
  for (const row of await db
    .select({ id: apiKeys.id, name: apiKeys.name, start: apiKeys.start })
    .from(apiKeys)
    .where(and(networkKey(networkId), k.where))
    .orderBy(...k.orderBy)
    .limit(take))
    hits.push({ type: 'api_key', id: row.id, name: row.name, detail: `${row.start}…` });

  const webhookText = sql`(coalesce(${webhooks.description}, '') || ' ' || ${webhooks.url})`;
  const w = matching(webhooks.id, webhookText, q);
  for (const row of await db
    .select({ id: webhooks.id, url: webhooks.url, description: webhooks.description })
    .from(webhooks)
    .where(and(eq(webhooks.networkId, networkId), isNull(webhooks.deletedAt), w.where))
    .orderBy(...w.orderBy)
    .limit(take))
    hits.push({ type: 'webhook', id: row.id, name: row.description || row.url, detail: row.description ? row.url : null });

  return hits;
}
