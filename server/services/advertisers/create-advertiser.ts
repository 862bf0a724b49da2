import type { Tx } from '@/db/client';
import { newId } from '@/db/ids';
import { advertisers } from '@/db/schema';
import { adCategoryIds } from '@/server/services/ad-categories/ad-categories';
import type { AdvertiserRow } from './find-advertisers';

export interface AdvertiserFields {
  name: string;
  website?: string | null | undefined;
  contactEmail?: string | null | undefined;
  /** Ad category ids (checked and de-duplicated here). */
  categories?: string[] | undefined;
}

export async function createAdvertiser({ tx, networkId, fields }: { tx: Tx; networkId: string; fields: AdvertiserFields }): Promise<AdvertiserRow> {
  const [row] = await tx
    .insert(advertisers)
    .values({
      id: newId('advertiser'),
      networkId,
      name: fields.name,
      website: fields.website ?? null,
      contactEmail: fields.contactEmail ?? null,
      categories: adCategoryIds(fields.categories ?? [], 'categories'),
    })
    .returning();
  return row!;
}
