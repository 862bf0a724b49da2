import { z } from 'zod';
import { maxCharacters, networkParam } from '@/server/routers/shared.types';

export const SEARCH_RESULT_TYPES = ['campaign', 'podcast', 'advertiser', 'api_key', 'webhook'] as const;

export const searchInput = z.strictObject({
  ...networkParam,
  q: z
    .string({ error: 'q is required: the text to look for.' })
    .trim()
    .min(1, 'q must not be empty.')
    .check(maxCharacters(100, 'q must be at most 100 characters.'))
    .meta({ description: 'Text to find in names (any case; podcasts by host too, webhooks by URL), or an exact id.' }),
  limit: z.coerce
    .number({ error: 'limit must be a number from 1 to 20.' })
    .int('limit must be a number from 1 to 20.')
    .min(1, 'limit must be a number from 1 to 20.')
    .max(20, 'limit must be a number from 1 to 20.')
    .default(5)
    .meta({ description: 'At most this many results of each type (default 5).' }),
});

export const searchResultSchema = z
  .object({
    type: z.enum(SEARCH_RESULT_TYPES).meta({ id: 'SearchResultType' }),
    id: z.string().meta({ example: 'cmp_01jd8x6v2c9q7r5t3w1y0zabcd' }),
    name: z.string().meta({ example: 'Spring sale' }),
    detail: z.string().nullable().meta({ description: 'A second line: a campaign’s status, a podcast’s host, a key’s start, a webhook’s URL.' }),
  })
  .meta({ id: 'SearchResult' });

export const searchOutput = z.object({ items: z.array(searchResultSchema) }).meta({ id: 'SearchResults' });
