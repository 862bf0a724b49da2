import { z } from 'zod';
import { listParams, pageOf } from '@/server/http/page';
import { BRAND_SAFETY_RULES } from '@/domain/brand-safety';
import { podcastSchema } from '@/server/routers/podcasts/podcast.types';
import { flightParams } from './flight.types';

export const listEligiblePodcastsInput = z.strictObject({ ...flightParams, ...listParams });

export const brandSafetyReasonSchema = z
  .object({
    rule: z.enum(BRAND_SAFETY_RULES).meta({
      description:
        'excluded_category: the podcast excludes a category of the advertiser (or one above it); blocked_advertiser: it blocks the advertiser; ' +
        'competitive_separation: it holds an accepted offer of a competitor in overlapping dates and either campaign asks for separation.',
    }),
    detail: z.string().meta({ description: 'The rule and what it matched, as the 409 brand-safety of an accept would say it.' }),
  })
  .meta({ id: 'BrandSafetyReason' });

export const podcastEligibilitySchema = z
  .object({
    podcast: podcastSchema,
    eligible: z.boolean().meta({ description: 'true when no rule stands in the way (reasons is empty).' }),
    reasons: z
      .array(brandSafetyReasonSchema)
      .meta({ description: 'Every brand-safety rule an offer of this flight to the podcast breaks, as things stand.' }),
  })
  .meta({ id: 'PodcastEligibility' });

export const listEligiblePodcastsOutput = pageOf(podcastEligibilitySchema).meta({ id: 'PodcastEligibilityList' });
