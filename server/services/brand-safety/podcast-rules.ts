import { and, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { advertisers } from '@/db/schema';
import { badRequest } from '@/server/errors';
import { adCategoryIds } from '@/server/services/ad-categories/ad-categories';

export interface PodcastRuleFields {
  excludedCategories?: string[] | undefined;
  blockedAdvertiserIds?: string[] | undefined;
}

/**
 * A podcast's brand-safety lists as a create or update writes them (only those sent): each
 * excluded category a category of the taxonomy, each blocked id an advertiser of this network — a
 * deleted one too, so a list read back and sent again stays valid — else a 400 naming the field and
 * the ids; each kept once, in the order sent.
 */
export async function checkedPodcastRules({
  db,
  networkId,
  rules,
}: {
  db: Queryable;
  networkId: string;
  rules: PodcastRuleFields;
}): Promise<PodcastRuleFields> {
  const checked: PodcastRuleFields = {};
  if (rules.excludedCategories) checked.excludedCategories = adCategoryIds(rules.excludedCategories, 'excluded_categories');
  if (rules.blockedAdvertiserIds) {
    const ids = [...new Set(rules.blockedAdvertiserIds)];
    const known =
      ids.length === 0
        ? []
        : await db
            .select({ id: advertisers.id })
            .from(advertisers)
            .where(and(eq(advertisers.networkId, networkId), inArray(advertisers.id, ids)));
    const unknown = ids.filter((id) => !known.some((a) => a.id === id));
    if (unknown.length > 0) {
      const list = unknown.map((id) => `'${id}'`).join(', ');
      throw badRequest(`blocked_advertiser_ids: ${list} ${unknown.length === 1 ? 'is not an advertiser' : 'are not advertisers'} of this network.`, [
        { path: 'blocked_advertiser_ids', message: `No advertiser of this network: ${list}.` },
      ]);
    }
    checked.blockedAdvertiserIds = ids;
  }
  return checked;
}
