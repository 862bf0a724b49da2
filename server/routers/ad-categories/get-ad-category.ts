import { adCategory } from '@/domain/ad-categories/taxonomy';
import { found } from '@/server/errors';
import { authedProcedure } from '@/server/trpc';
import { adCategorySchema, presentAdCategory } from './ad-category.types';
import { getAdCategoryInput } from './get-ad-category.types';

export const getAdCategoryRoute = authedProcedure
  .meta({
    errors: { 'not-found': 'No category with this id in the taxonomy.' },
    openapi: {
      method: 'GET',
      path: '/ad-categories/{categoryId}',
      tags: ['ad categories'],
      summary: 'One ad category',
      description: 'A category of the IAB Tech Lab Ad Product Taxonomy 2.0 (CC BY 3.0), with its parent and its path from the top level.',
      protect: true,
    },
  })
  .input(getAdCategoryInput)
  .output(adCategorySchema)
  .query(({ input }) => presentAdCategory(found(adCategory(input.categoryId), 'Ad category')));
