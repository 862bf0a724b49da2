import data from './ad-product-taxonomy-2.0.json';

/**
 * The IAB Tech Lab Ad Product Taxonomy 2.0 (CC BY 3.0; NOTICE.md beside this file): what an
 * advertiser sells, as brand safety compares it. Shipped as data, made from the Tech Lab's TSV by
 * scripts/ad-categories.ts; ids are the taxonomy's own ("1361" is Gambling).
 */
export const AD_TAXONOMY = {
  name: data.taxonomy,
  version: data.version,
  license: data.license,
  attribution: data.attribution,
  source: data.source,
} as const;

export interface AdCategory {
  id: string;
  name: string;
  /** null for a top-level category. */
  parentId: string | null;
  /** Names from the top-level category down to this one (its own name last). */
  path: string[];
}

const categoryById = new Map<string, AdCategory>();
for (const [id, parentId, name] of data.categories as Array<[string, string | null, string]>) {
  // The source lists parents before their children (the script refuses cycles), so the parent's path is known.
  const parentPath = parentId ? categoryById.get(parentId)!.path : [];
  categoryById.set(id, { id, name, parentId, path: [...parentPath, name] });
}

/** Every category, in the taxonomy's order (by id: each parent before its sub-categories). */
export const AD_CATEGORIES: readonly AdCategory[] = [...categoryById.values()].sort((a, b) => Number(a.id) - Number(b.id));

export function adCategory(id: string): AdCategory | undefined {
  return categoryById.get(id);
}

/** Whether `id` is `ancestorId` or one of its sub-categories, at any depth. */
export function isWithinCategory(id: string, ancestorId: string): boolean {
  for (let at = categoryById.get(id); at; at = at.parentId ? categoryById.get(at.parentId) : undefined) {
    if (at.id === ancestorId) return true;
  }
  return false;
}
