import { AD_TAXONOMY } from '@/domain/ad-categories/taxonomy';
import { paginate } from '@/server/http/pagination';
import { listAdCategories } from '@/server/services/ad-categories/ad-categories';
import { authedProcedure } from '@/server/trpc';
import { presentAdCategory } from './ad-category.types';
import { listAdCategoriesInput, listAdCategoriesOutput } from './list-ad-categories.types';

/** What the taxonomy is, as every page of the list says it. */
const TAXONOMY = {
  name: AD_TAXONOMY.name,
  version: AD_TAXONOMY.version,
  license: AD_TAXONOMY.license,
  attribution: AD_TAXONOMY.attribution,
  source: `${AD_TAXONOMY.source.repository}/blob/${AD_TAXONOMY.source.commit}/${encodeURI(AD_TAXONOMY.source.path)}`,
};

export const listAdCategoriesRoute = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/ad-categories',
      tags: ['ad categories'],
      summary: 'The ad categories: the IAB Tech Lab Ad Product Taxonomy 2.0',
      description:
        'What advertisers are classified by (`categories`) and podcasts exclude (`excluded_categories`): the IAB Tech Lab Ad Product Taxonomy, ' +
        'version 2.0, shipped with the service as data and licensed under CC BY 3.0 (`taxonomy` says which version, its licence and source). ' +
        'Any API key may read it: it is the same for every network. Ordered by id (each category before its sub-categories), with a cursor; ' +
        '`q` filters by name, `parent_id` to the direct sub-categories of one, `tier` to one depth (1: the top level).',
      protect: true,
    },
  })
  .input(listAdCategoriesInput)
  .output(listAdCategoriesOutput)
  .query(async ({ input }) => {
    const filter = { q: input.q, parentId: input.parent_id, tier: input.tier };
    const page = await paginate(
      input,
      `ad-categories:q=${input.q ?? ''}:parent=${input.parent_id ?? ''}:tier=${input.tier ?? ''}`,
      async (after, take) => listAdCategories({ filter, afterId: after, take }),
      presentAdCategory,
    );
    return { ...page, taxonomy: TAXONOMY };
  });
