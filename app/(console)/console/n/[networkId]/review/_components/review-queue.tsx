'use client';

import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { ClipboardCheck, History } from 'lucide-react';
import { useMemo } from 'react';
import { CampaignLines } from '@/app/(console)/_components/campaign-lines';
import { Button } from '@/app/(console)/_components/ui/button';
import { IntentLink } from '@/app/(console)/_components/ui/intent-link';
import { LoadingBlock } from '@/app/(console)/_components/ui/skeleton';
import { EmptyState, ErrorState, PageHeader } from '@/app/(console)/_components/ui/states';
import { namesById, useCampaigns, usePodcasts, formatDuration } from '@/app/(console)/_lib/ads';
import { reviewerInWords } from '@/app/(console)/_lib/creative-review';
import { formatDateTime } from '@/app/(console)/_lib/dates';
import { networkPath, useCanAdminister, useNetworkId } from '@/app/(console)/_lib/network';
import { byCursor, pagedList } from '@/app/(console)/_lib/paged-list';
import { useTRPC } from '@/app/(console)/_lib/trpc';
import { CreativeAudio, type Creative } from '@/app/(console)/console/n/[networkId]/creatives/_components/creative-audio';
import { ReviewActions } from '@/app/(console)/console/n/[networkId]/creatives/_components/review-actions';

/** How often the queue is read again: new revisions arrive as their audio is made, and hosts decide from their links. */
const REFRESH_MS = 15_000;

/**
 * The administrators' review queue (/review): every creative waiting for approval, oldest first
 * in each page the API gives, with its audio, script, campaign and podcast. The host approves from
 * their emailed link; an administrator can approve or request changes here on the host's behalf,
 * and it is recorded as such. Read_only members see the queue without the audio or the actions.
 */
export function ReviewQueue() {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const canAdminister = useCanAdminister(networkId);
  const campaigns = useCampaigns(networkId);
  const podcasts = usePodcasts(networkId);
  const campaignNames = useMemo(() => namesById(campaigns.data?.items), [campaigns.data]);
  const podcastNames = useMemo(() => namesById(podcasts.data?.items), [podcasts.data]);
  const list = pagedList(
    useInfiniteQuery(
      trpc.creatives.list.infiniteQueryOptions({ networkId, limit: 50, status: 'pending_approval' }, { ...byCursor, refetchInterval: REFRESH_MS }),
    ),
  );
  const count = list.rows?.length;
  return (
    <>
      <PageHeader
        title="Review queue"
        description="Creatives waiting for approval. The host approves or asks for changes from the link they were emailed; an administrator can do it here on the host’s behalf, and it is recorded as such. Only approved audio is delivered."
      />
      <p role="status" aria-live="polite" className="mb-4 min-h-5 text-sm text-slate-700" data-testid="review-count">
        {count === undefined ? '' : count === 0 ? '' : `${count}${list.hasMore ? '+' : ''} waiting for review`}
      </p>
      {list.error ? (
        <ErrorState error={list.error} onRetry={list.refetch} />
      ) : !list.rows ? (
        <LoadingBlock lines={6} />
      ) : list.rows.length === 0 ? (
        <div className="rounded-lg border border-slate-200 bg-white">
          <EmptyState
            icon={<ClipboardCheck className="size-6" />}
            title="Nothing to review"
            description="A creative comes here once its audio is made, until the host or an administrator approves it or asks for changes."
            action={
              <Button asChild variant="secondary">
                <IntentLink href={networkPath(networkId, 'creatives')}>All creatives</IntentLink>
              </Button>
            }
          />
        </div>
      ) : (
        <>
          <ul aria-label="Creatives waiting for review" className="space-y-4">
            {list.rows.map((creative) => (
              <li key={creative.id}>
                <QueueItem
                  creative={creative}
                  campaignName={campaignNames.get(creative.campaign_id) ?? creative.campaign_id}
                  podcastName={podcastNames.get(creative.podcast_id) ?? creative.podcast_id}
                  canAdminister={canAdminister}
                />
              </li>
            ))}
          </ul>
          {list.hasMore && (
            <div className="mt-4 flex justify-center">
              <Button variant="secondary" loading={list.loadingMore} onClick={list.loadMore}>
                Load more
              </Button>
            </div>
          )}
        </>
      )}
    </>
  );
}

function QueueItem({
  creative: c,
  campaignName,
  podcastName,
  canAdminister,
}: {
  creative: Creative;
  campaignName: string;
  podcastName: string;
  canAdminister: boolean;
}) {
  const networkId = useNetworkId();
  const headingId = `review-${c.id}`;
  const label = `revision ${c.revision} of ${campaignName} on ${podcastName}`;
  return (
    <article aria-labelledby={headingId} className="rounded-lg border border-slate-200 bg-white shadow-sm" data-testid={`review-item-${c.id}`}>
      <header className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1 border-b border-slate-100 px-5 py-4">
        <div className="min-w-0">
          <h2 id={headingId} className="text-base font-semibold break-words text-slate-900">
            {campaignName} <span className="font-normal text-slate-600">on</span> {podcastName}
          </h2>
          <p className="text-xs text-slate-600">
            Revision {c.revision} · {formatDuration(c.duration_ms)} · ready {formatDateTime(c.ready_at)}
            {c.review_link_expires_at && ` · host’s link works until ${formatDateTime(c.review_link_expires_at)}`}
          </p>
        </div>
        <IntentLink
          href={`${networkPath(networkId, 'creatives')}?creative=${encodeURIComponent(c.id)}`}
          className="inline-flex items-center gap-1 text-sm font-medium text-indigo-700 underline-offset-4 hover:underline"
          aria-label={`History of ${label}`}
        >
          <History className="size-4" aria-hidden /> History
        </IntentLink>
      </header>
      <div className="grid gap-5 px-5 py-4 md:grid-cols-[3fr_2fr]">
        <div className="min-w-0 space-y-3">
          {c.revision > 1 && <AskedFor creative={c} />}
          <section>
            <h3 className="text-sm font-semibold text-slate-900">Script</h3>
            <p className="mt-1 text-sm whitespace-pre-wrap text-slate-800" data-testid="review-script">
              {c.script}
            </p>
          </section>
          <CampaignLinesOf creative={c} />
        </div>
        <div className="min-w-0 space-y-4">
          <section>
            <h3 className="text-sm font-semibold text-slate-900">Audio</h3>
            <div className="mt-1.5">
              {canAdminister ? (
                <CreativeAudio creative={c} canAdminister label={label} />
              ) : (
                <p className="text-sm text-slate-600">Only administrators listen before the host approves.</p>
              )}
            </div>
          </section>
          {canAdminister && <ReviewActions creative={c} label={label} size="md" />}
        </div>
      </div>
    </article>
  );
}

/** What the review before this revision asked for (a revision is made from a request for changes). */
function AskedFor({ creative }: { creative: Creative }) {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const revisions = useQuery(trpc.creatives.revisions.queryOptions({ networkId, creativeId: creative.id }));
  const previous = revisions.data?.items.find((r) => r.id === creative.previous_revision_id);
  if (!previous?.review) return null;
  return (
    <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
      Changes asked by {reviewerInWords(previous.review.reviewed_by)}, {formatDateTime(previous.review.reviewed_at)}
      {previous.review.comment && <>: “{previous.review.comment}”</>}
    </p>
  );
}

/** The campaign's talking points and required lines, checked against the script; folded away. */
function CampaignLinesOf({ creative }: { creative: Creative }) {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const campaign = useQuery(trpc.campaigns.get.queryOptions({ networkId, campaignId: creative.campaign_id }));
  const lines = campaign.data ? campaign.data.talking_points.length + campaign.data.required_lines.length : undefined;
  return (
    <details className="rounded-md border border-slate-200 px-3 py-2">
      <summary className="cursor-pointer text-sm font-medium text-slate-800">
        Talking points and required lines{lines !== undefined && ` (${lines})`}
      </summary>
      <div className="mt-2">
        {campaign.error ? (
          <ErrorState error={campaign.error} onRetry={() => campaign.refetch()} />
        ) : campaign.data ? (
          <CampaignLines
            talkingPoints={campaign.data.talking_points}
            requiredLines={campaign.data.required_lines}
            script={creative.script}
            headingLevel={3}
          />
        ) : (
          <LoadingBlock lines={2} />
        )}
      </div>
    </details>
  );
}
