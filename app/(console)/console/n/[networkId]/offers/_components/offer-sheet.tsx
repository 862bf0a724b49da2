'use client';

import { useQuery } from '@tanstack/react-query';
import { DetailItem, DetailList, DetailSheet, Loaded } from '@/app/(console)/_components/detail-sheet';
import { StatusBadge } from '@/app/(console)/_components/ui/badge';
import { DateTime } from '@/app/(console)/_components/ui/date-time';
import { IntentLink } from '@/app/(console)/_components/ui/intent-link';
import { offerPrice } from '@/app/(console)/_lib/ads';
import { networkPath, useNetworkId } from '@/app/(console)/_lib/network';
import { useTRPC } from '@/app/(console)/_lib/trpc';
import { OfferActions } from './offer-actions';
import { OfferTermsItems } from './offer-terms';

/** One offer (`/offers?offer=off_…`): its terms, what became of it, and its buttons. */
export function OfferSheet({
  offerId,
  onClose,
  canAdminister,
  campaignNames,
  podcastNames,
}: {
  offerId: string | null;
  onClose: () => void;
  canAdminister: boolean;
  campaignNames: Map<string, string>;
  podcastNames: Map<string, string>;
}) {
  return (
    <DetailSheet objectId={offerId} onClose={onClose} title="Offer">
      {(id) => <OfferDetail offerId={id} canAdminister={canAdminister} campaignNames={campaignNames} podcastNames={podcastNames} />}
    </DetailSheet>
  );
}

function OfferDetail({
  offerId,
  canAdminister,
  campaignNames,
  podcastNames,
}: {
  offerId: string;
  canAdminister: boolean;
  campaignNames: Map<string, string>;
  podcastNames: Map<string, string>;
}) {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const offer = useQuery(trpc.offers.get.queryOptions({ networkId, offerId }));
  return (
    <Loaded query={offer}>
      {(o) => {
        const campaignName = campaignNames.get(o.campaign_id);
        const podcastName = podcastNames.get(o.podcast_id);
        return (
          <div className="space-y-6">
            <DetailList>
              <DetailItem label="Status">
                <StatusBadge status={o.status} />
              </DetailItem>
              <DetailItem label="Price">{offerPrice(o)}</DetailItem>
              <DetailItem label="Campaign">
                <IntentLink
                  href={networkPath(networkId, `campaigns/${o.campaign_id}`)}
                  className="font-medium text-indigo-700 underline-offset-4 hover:underline"
                >
                  {campaignName ?? o.campaign_id}
                </IntentLink>
              </DetailItem>
              <DetailItem label="Podcast">{podcastName ?? o.podcast_id}</DetailItem>
              <OfferTermsItems offer={o} />
              <DetailItem label="Offered">
                <DateTime value={o.created_at} />
              </DetailItem>
              <DetailItem label="Expires">
                <DateTime value={o.expires_at} unset="Never" />
              </DetailItem>
              {o.status === 'rejected' && (
                <DetailItem label="Reason for rejecting" wide>
                  {o.reject_reason ? `“${o.reject_reason}”` : 'None given'}
                </DetailItem>
              )}
            </DetailList>
            <OfferActions offer={o} canAdminister={canAdminister} campaignName={campaignName} podcastName={podcastName} />
          </div>
        );
      }}
    </Loaded>
  );
}
