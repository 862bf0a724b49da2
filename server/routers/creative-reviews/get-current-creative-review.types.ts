import { z } from 'zod';
import { idField, iso, timestamp } from '@/server/routers/shared.types';
import { creativeReviewSchema, creativeStatusSchema, presentReview } from '@/server/routers/creatives/creative.types';
import type { ReviewLink } from '@/server/services/creatives/review-view';

export const getCurrentCreativeReviewInput = z.strictObject({});

/**
 * What the host's review page shows, read with the link's token: the revision (its script, its
 * length, the decision on it), the campaign's talking points and required lines, who made it, and
 * the revisions before it. Nothing of the network's beyond that.
 */
export const creativeReviewLinkViewSchema = z
  .object({
    creative: z
      .object({
        id: idField('crv'),
        revision: z.number().int(),
        status: creativeStatusSchema,
        script: z.string().meta({ description: 'What the host’s synthesized voice reads in this revision.' }),
        duration_ms: z.number().int().nullable(),
        review: creativeReviewSchema.nullable().meta({ description: 'The decision on this revision; null while nobody has decided.' }),
      })
      .meta({ description: 'The revision this link is for. GET …/current/audio plays it while it is pending_approval or approved.' }),
    campaign: z.object({
      name: z.string(),
      advertiser_name: z.string(),
      talking_points: z.array(z.string()).meta({ description: 'What the advertiser wants said, in the host’s words.' }),
      required_lines: z.array(z.string()).meta({ description: 'Lines every script must contain word for word.' }),
    }),
    podcast_name: z.string(),
    host_name: z.string().meta({ description: 'The host whose voice was synthesized (as their consent names them).' }),
    network_name: z.string().meta({ description: 'Who made the ad.' }),
    link_expires_at: timestamp.meta({ description: 'Until when this link works (after that it answers 404).' }),
    revisions: z
      .array(
        z.object({
          revision: z.number().int(),
          status: creativeStatusSchema,
          script: z.string(),
          review: creativeReviewSchema.nullable(),
          created_at: timestamp,
        }),
      )
      .meta({ description: 'Every revision up to this one, revision 1 first, with who decided what and when.' }),
  })
  .meta({ id: 'CreativeReviewLinkView' });

export type CreativeReviewLinkView = z.infer<typeof creativeReviewLinkViewSchema>;

export function presentCreativeReviewLinkView({ creative, parties, revisions }: ReviewLink): CreativeReviewLinkView {
  return {
    creative: {
      id: creative.id,
      revision: creative.revision,
      status: creative.status,
      script: creative.script,
      duration_ms: creative.durationMs,
      review: presentReview(creative),
    },
    campaign: {
      name: parties.campaign.name,
      advertiser_name: parties.campaign.advertiserName,
      talking_points: parties.campaign.talkingPoints,
      required_lines: parties.campaign.requiredLines,
    },
    podcast_name: parties.podcastName,
    host_name: parties.hostName,
    network_name: parties.networkName,
    // The link's gate admitted it: it has an end, in the future.
    link_expires_at: iso(creative.reviewLinkExpiresAt!),
    revisions: revisions.map((r) => ({
      revision: r.revision,
      status: r.status,
      script: r.script,
      review: presentReview(r),
      created_at: iso(r.createdAt),
    })),
  };
}
