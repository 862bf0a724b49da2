import { z } from 'zod';
import { adCategoryIdsField } from '@/server/routers/ad-categories/ad-category.types';
import type { AdvertiserRow } from '@/server/services/advertisers/find-advertisers';
import { idField, isoOrNull, maxCharacters, networkParam, timestamp, versionedFields, versionedOf } from '@/server/routers/shared.types';

/** Path parameters of an advertiser route. */
export const advertiserParams = {
  ...networkParam,
  advertiserId: z.string().min(1).meta({ description: 'Advertiser id (adv_…).' }),
};

/** An http(s) URL, as a website or feed address. */
export const httpUrlField = (field: string) =>
  z
    .string({ error: `${field} must be a string (an http or https URL).` })
    .trim()
    .check(maxCharacters(2048, `${field} must be at most 2048 characters.`))
    .pipe(z.url({ protocol: /^https?$/, error: `${field} must be an http or https URL.` }));

export const contactEmailField = z
  .string({ error: 'contact_email must be a string (an email address).' })
  .trim()
  .pipe(z.email({ error: 'contact_email must be a valid email address.' }).max(320));

/** At most this many categories per advertiser: what it sells, not every shelf it might be near. */
export const ADVERTISER_CATEGORIES_MAX = 10;

export const categoriesField = adCategoryIdsField('categories', ADVERTISER_CATEGORIES_MAX, 'What the advertiser sells; brand safety compares it.');

export const advertiserSchema = z
  .object({
    id: z.string().meta({ example: 'adv_01jd8x6v2c9q7r5t3w1y0zabcd' }),
    network_id: idField('net'),
    name: z.string(),
    website: z.string().nullable(),
    contact_email: z.string().nullable(),
    categories: z.array(z.string()).meta({
      example: ['1004'],
      description: 'What the advertiser sells: ids of the IAB Ad Product Taxonomy (`GET /v1/ad-categories`). Brand safety compares them.',
    }),
    ...versionedFields,
    deleted_at: timestamp.nullable().meta({ description: 'Set only in the answer to DELETE; a deleted advertiser is no longer readable.' }),
  })
  .meta({ id: 'Advertiser' });

export type Advertiser = z.infer<typeof advertiserSchema>;

export function presentAdvertiser(row: AdvertiserRow): Advertiser {
  return {
    id: row.id,
    network_id: row.networkId,
    name: row.name,
    website: row.website,
    contact_email: row.contactEmail,
    categories: row.categories,
    ...versionedOf(row),
    deleted_at: isoOrNull(row.deletedAt),
  };
}
