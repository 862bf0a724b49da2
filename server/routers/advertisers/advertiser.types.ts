import { z } from 'zod';
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

export const advertiserSchema = z
  .object({
    id: z.string().meta({ example: 'adv_01jd8x6v2c9q7r5t3w1y0zabcd' }),
    network_id: idField('net'),
    name: z.string(),
    website: z.string().nullable(),
    contact_email: z.string().nullable(),
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
    ...versionedOf(row),
    deleted_at: isoOrNull(row.deletedAt),
  };
}
