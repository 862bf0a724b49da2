'use client';

import { useQuery } from '@tanstack/react-query';
import { DetailItem, DetailList, DetailSheet, Loaded } from '@/app/(console)/_components/detail-sheet';
import { StatusBadge } from '@/app/(console)/_components/ui/badge';
import { DateTime } from '@/app/(console)/_components/ui/date-time';
import { IntentLink } from '@/app/(console)/_components/ui/intent-link';
import { formatDuration } from '@/app/(console)/_lib/ads';
import { networkPath, useNetworkId } from '@/app/(console)/_lib/network';
import { useTRPC } from '@/app/(console)/_lib/trpc';
import { CreativeAudio } from './creative-audio';

/** How often an open creative is read again while it is generating. */
const POLL_MS = 1500;

/** One creative (`/creatives?creative=crv_…`): its audio, what it reads, where it came from. */
export function CreativeSheet({
  creativeId,
  onClose,
  canAdminister,
  campaignNames,
  podcastNames,
}: {
  creativeId: string | null;
  onClose: () => void;
  canAdminister: boolean;
  campaignNames: Map<string, string>;
  podcastNames: Map<string, string>;
}) {
  return (
    <DetailSheet objectId={creativeId} onClose={onClose} title="Creative">
      {(id) => <CreativeDetail creativeId={id} canAdminister={canAdminister} campaignNames={campaignNames} podcastNames={podcastNames} />}
    </DetailSheet>
  );
}

function CreativeDetail({
  creativeId,
  canAdminister,
  campaignNames,
  podcastNames,
}: {
  creativeId: string;
  canAdminister: boolean;
  campaignNames: Map<string, string>;
  podcastNames: Map<string, string>;
}) {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const creative = useQuery(
    trpc.creatives.get.queryOptions({ networkId, creativeId }, { refetchInterval: (q) => (q.state.data?.status === 'generating' ? POLL_MS : false) }),
  );
  return (
    <Loaded query={creative}>
      {(c) => {
        const campaignName = campaignNames.get(c.campaign_id) ?? c.campaign_id;
        const podcastName = podcastNames.get(c.podcast_id) ?? c.podcast_id;
        return (
          <div className="space-y-6">
            <DetailList>
              <DetailItem label="Status">
                <StatusBadge status={c.status} />
              </DetailItem>
              <DetailItem label="Length">{formatDuration(c.duration_ms)}</DetailItem>
              <DetailItem label="Campaign">
                <IntentLink
                  href={networkPath(networkId, `campaigns/${c.campaign_id}`)}
                  className="font-medium text-indigo-700 underline-offset-4 hover:underline"
                >
                  {campaignName}
                </IntentLink>
              </DetailItem>
              <DetailItem label="Podcast">
                {podcastName}
                <span className="block text-xs text-slate-600 capitalize">{c.voice} voice</span>
              </DetailItem>
              <DetailItem label="Offer">
                <IntentLink
                  href={`${networkPath(networkId, 'offers')}?offer=${encodeURIComponent(c.offer_id)}`}
                  className="font-mono text-xs text-indigo-700 underline-offset-4 hover:underline"
                >
                  {c.offer_id}
                </IntentLink>
              </DetailItem>
              <DetailItem label="Created">
                <DateTime value={c.created_at} />
              </DetailItem>
              <DetailItem label="Script" wide>
                <span className="whitespace-pre-wrap">{c.script}</span>
              </DetailItem>
            </DetailList>
            <CreativeAudio creative={c} canAdminister={canAdminister} label={`${campaignName} on ${podcastName}`} />
          </div>
        );
      }}
    </Loaded>
  );
}
