'use client';

import { useQuery } from '@tanstack/react-query';
import type { AdCategoryItem } from '@/server/routers/ad-categories/ad-category.types';
import { useTRPCClient } from './trpc';

/*
 * The ad categories (GET /v1/ad-categories, the IAB Tech Lab Ad Product Taxonomy): the same for
 * every network and fixed for a release, so the console reads the whole taxonomy once (a few pages)
 * and keeps it, to name the categories advertisers have and podcasts exclude, and to search it.
 */

export type AdCategory = AdCategoryItem;

export interface AdTaxonomy {
  items: AdCategory[];
  byId: ReadonlyMap<string, AdCategory>;
  /** "IAB Tech Lab Ad Product Taxonomy 2.0 (CC BY 3.0)": said beside a picker, as the licence asks. */
  credit: string;
}

export function useAdCategories() {
  const client = useTRPCClient();
  return useQuery({
    queryKey: ['console', 'ad-categories', 'whole taxonomy'],
    queryFn: async (): Promise<AdTaxonomy> => {
      const items: AdCategory[] = [];
      let credit = '';
      let cursor: string | undefined;
      do {
        const page = await client.adCategories.list.query({ limit: 200, cursor });
        items.push(...page.items);
        credit = `${page.taxonomy.name} ${page.taxonomy.version} (${page.taxonomy.license.name})`;
        cursor = page.next_cursor ?? undefined;
      } while (cursor);
      return { items, byId: new Map(items.map((c) => [c.id, c])), credit };
    },
    staleTime: Infinity,
    gcTime: Infinity,
  });
}

/** A category as people read it in a list: its path, "Alcohol › Beer"; the bare id while the taxonomy loads or when it is unknown. */
export function categoryLabel(id: string, taxonomy: AdTaxonomy | undefined): string {
  const category = taxonomy?.byId.get(id);
  return category ? category.path.join(' › ') : id;
}

/** The taxonomy as a picker's choices: each category by name, placed by the categories above it. */
export function categoryOptions(taxonomy: AdTaxonomy | undefined): { id: string; label: string; detail?: string }[] | undefined {
  return taxonomy?.items.map((c) => ({ id: c.id, label: c.name, detail: c.path.length > 1 ? c.path.slice(0, -1).join(' › ') : undefined }));
}
