import { z } from 'zod';
import { OFFER_STATUSES } from '@/domain/statuses';
import { offerStatus } from '@/server/services/offers/offer-status';
import type { OfferRow } from '@/server/services/offers/find-offers';
import { idField, isoOrNull, timestamp, versionedFields, versionedOf } from '@/server/routers/shared.types';

export const offerStatusSchema = z.enum(OFFER_STATUSES);

export const offerSchema = z
  .object({
    id: idField('off'),
    network_id: idField('net'),
    campaign_id: idField('cmp'),
    podcast_id: idField('pod'),
    status: offerStatusSchema.meta({ description: 'open → accepted | rejected | expired' }),
    price_cents: z.number().int().nullable(),
    currency: z.string().nullable(),
    expires_at: timestamp.nullable(),
    reject_reason: z.string().nullable(),
    creative_id: z.string().nullable().meta({ description: 'Set when accepted: the creative being generated.' }),
    decided_at: timestamp.nullable(),
    ...versionedFields,
  })
  .meta({ id: 'Offer' });

export function presentOffer(row: OfferRow): z.infer<typeof offerSchema> {
  return {
    id: row.id,
    network_id: row.networkId,
    campaign_id: row.campaignId,
    podcast_id: row.podcastId,
    status: offerStatus(row),
    price_cents: row.priceCents,
    currency: row.currency,
    expires_at: isoOrNull(row.expiresAt),
    reject_reason: row.rejectReason,
    creative_id: row.creativeId,
    decided_at: isoOrNull(row.decidedAt),
    ...versionedOf(row),
  };
}

export const offerIdParam = { offerId: z.string().min(1).meta({ description: 'Offer id (off_…).' }) };
