import { z } from 'zod';
import type { AdCategory } from '@/domain/ad-categories/taxonomy';

/** Path parameter naming a category of the taxonomy. */
export const adCategoryParams = {
  categoryId: z.string().min(1).meta({ description: 'An ad category id of the taxonomy (e.g. 1361, Gambling).' }),
};

export const adCategorySchema = z
  .object({
    id: z.string().meta({ example: '1362', description: 'The taxonomy’s own id (its Unique ID).' }),
    name: z.string().meta({ example: 'Casinos' }),
    parent_id: z.string().nullable().meta({ example: '1361', description: 'The category this one is a sub-category of; null at the top level.' }),
    path: z
      .array(z.string())
      .meta({ example: ['Gambling', 'Casinos'], description: 'Names from the top-level category down to this one (its own name last).' }),
  })
  .meta({ id: 'AdCategory', description: 'A category of the IAB Tech Lab Ad Product Taxonomy 2.0: what an advertiser sells.' });

export type AdCategoryItem = z.infer<typeof adCategorySchema>;

export function presentAdCategory(category: AdCategory): AdCategoryItem {
  return { id: category.id, name: category.name, parent_id: category.parentId, path: category.path };
}

/** Up to `max` ad category ids (GET /v1/ad-categories); the service refuses unknown ones and keeps each once. */
export const adCategoryIdsField = (field: string, max: number, what: string) =>
  z
    .array(
      z
        .string({ error: `${field} must be a list of ad category ids (strings, e.g. "1361").` })
        .min(1, `${field} must not hold an empty id.`)
        .max(32),
      {
        error: `${field} must be a list of ad category ids (strings, e.g. "1361").`,
      },
    )
    .max(max, `${field} holds at most ${max} categories.`)
    .meta({
      description: `${what} Ids of the IAB Ad Product Taxonomy (\`GET /v1/ad-categories\`), at most ${max}; an unknown id → 400, a repeated one is kept once.`,
    });
