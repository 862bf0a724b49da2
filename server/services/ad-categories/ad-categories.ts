import { AD_CATEGORIES, adCategory, type AdCategory } from '@/domain/ad-categories/taxonomy';
import { badRequest } from '@/server/errors';

export interface AdCategoryFilter {
  /** Part of the name, any case. */
  q?: string | undefined;
  /** Only the direct sub-categories of this one. */
  parentId?: string | undefined;
  /** Only categories this deep (1: top level). */
  tier?: number | undefined;
}

/**
 * A page of the taxonomy (shipped as data, the same for every caller), in its order (by id), after
 * `afterId`. A `parentId` that is not a category is a 400 naming `parent_id`.
 */
export function listAdCategories({ filter, afterId, take }: { filter: AdCategoryFilter; afterId: string | undefined; take: number }): AdCategory[] {
  if (filter.parentId !== undefined && !adCategory(filter.parentId)) {
    throw badRequest(`parent_id '${filter.parentId}' is not an ad category.`, [{ path: 'parent_id', message: 'Unknown ad category.' }]);
  }
  const q = filter.q?.toLowerCase();
  const after = afterId === undefined ? -Infinity : Number(afterId);
  const page: AdCategory[] = [];
  for (const category of AD_CATEGORIES) {
    if (page.length === take) break;
    if (Number(category.id) <= after) continue;
    if (filter.parentId !== undefined && category.parentId !== filter.parentId) continue;
    if (filter.tier !== undefined && category.path.length !== filter.tier) continue;
    if (q && !category.name.toLowerCase().includes(q)) continue;
    page.push(category);
  }
  return page;
}

/**
 * Ad category ids as a write stores them: each a category of the taxonomy (else a 400 naming
 * `field` and the id), each once, in the order sent.
 */
export function adCategoryIds(ids: string[], field: string): string[] {
  const unknown = ids.filter((id) => !adCategory(id));
  if (unknown.length > 0) {
    const list = unknown.map((id) => `'${id}'`).join(', ');
    throw badRequest(
      `${field}: ${list} ${unknown.length === 1 ? 'is not an ad category' : 'are not ad categories'} (GET /v1/ad-categories lists them).`,
      [{ path: field, message: `Unknown ad category: ${list}.` }],
    );
  }
  return [...new Set(ids)];
}
