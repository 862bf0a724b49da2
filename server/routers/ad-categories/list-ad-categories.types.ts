import { z } from 'zod';
import { listParams } from '@/server/http/page';
import { textFilter } from '@/server/routers/shared.types';
import { adCategorySchema } from './ad-category.types';

const TIER_ERROR = 'tier must be a whole number from 1 to 9.';

export const listAdCategoriesInput = z.strictObject({
  ...listParams,
  q: textFilter('q', 'Only categories whose name contains this text (any case).'),
  parent_id: z.string().min(1).optional().meta({ description: 'Only the direct sub-categories of this category (an unknown id → 400).' }),
  tier: z.coerce
    .number({ error: TIER_ERROR })
    .int(TIER_ERROR)
    .min(1, TIER_ERROR)
    .max(9, TIER_ERROR)
    .optional()
    .meta({ description: 'Only categories this deep: 1 is the top level, 2 their sub-categories, and so on.' }),
});

export const taxonomySchema = z
  .object({
    name: z.string().meta({ example: 'IAB Tech Lab Ad Product Taxonomy' }),
    version: z.string().meta({ example: '2.0' }),
    license: z.object({ name: z.string().meta({ example: 'CC BY 3.0' }), url: z.string() }),
    attribution: z.string().meta({ description: 'The credit the licence asks for, and where the changes made to the data are listed.' }),
    source: z.string().meta({ description: 'Where the data comes from: the Tech Lab’s file, at the commit it was taken from.' }),
  })
  .meta({ id: 'AdTaxonomy', description: 'Which taxonomy and version the categories are, and under which licence.' });

export const listAdCategoriesOutput = z
  .object({ items: z.array(adCategorySchema), next_cursor: z.string().nullable(), taxonomy: taxonomySchema })
  .meta({ id: 'AdCategoryList' });
