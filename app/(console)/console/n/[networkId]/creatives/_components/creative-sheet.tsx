'use client';

import { useQuery } from '@tanstack/react-query';
import { Bot } from 'lucide-react';
import { DetailItem, DetailList, DetailSheet, Loaded } from '@/app/(console)/_components/detail-sheet';
import { StatusBadge } from '@/app/(console)/_components/ui/badge';
import { DateTime } from '@/app/(console)/_components/ui/date-time';
import { IntentLink } from '@/app/(console)/_components/ui/intent-link';
import { formatDuration } from '@/app/(console)/_lib/ads';
import { reviewerInWords, reviewVerb } from '@/app/(console)/_lib/creative-review';
import { formatDateTime } from '@/app/(console)/_lib/dates';
import { networkPath, useNetworkId } from '@/app/(console)/_lib/network';
import { useTRPC } from '@/app/(console)/_lib/trpc';
import { CreativeAudio, voiceConsentPath, type Creative } from './creative-audio';
import { ReviewActions } from './review-actions';

/** How often an open creative is read again while it is being made. */
const POLL_MS = 1500;

const linkClass = 'font-medium text-indigo-700 underline-offset-4 hover:underline';

/**
 * One creative (`/creatives?creative=crv_…`): its audio, what it reads, that the voice is
 * synthetic and the consent it was made under, its review (Approve / Request changes for
 * administrators while it waits for one) and its revisions, with who did what and when.
 */
export function CreativeSheet({
  creativeId,
  onClose,
  canAdminister,
  campaignNames,
  podcastNames,
  hrefOf,
}: {
  creativeId: string | null;
  onClose: () => void;
  canAdminister: boolean;
  campaignNames: Map<string, string>;
  podcastNames: Map<string, string>;
  /** The URL that opens another revision in this sheet. */
  hrefOf: (creativeId: string) => string;
}) {
  return (
    <DetailSheet objectId={creativeId} onClose={onClose} title="Creative">
      {(id) => (
        <CreativeDetail creativeId={id} canAdminister={canAdminister} campaignNames={campaignNames} podcastNames={podcastNames} hrefOf={hrefOf} />
      )}
    </DetailSheet>
  );
}

function CreativeDetail({
  creativeId,
  canAdminister,
  campaignNames,
  podcastNames,
  hrefOf,
}: {
  creativeId: string;
  canAdminister: boolean;
  campaignNames: Map<string, string>;
  podcastNames: Map<string, string>;
  hrefOf: (creativeId: string) => string;
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
        const label = `revision ${c.revision} of ${campaignName} on ${podcastName}`;
        return (
          <div className="space-y-6">
            <DetailList>
              <DetailItem label="Status">
                <span data-testid="creative-sheet-status">
                  <StatusBadge status={c.status} />
                </span>
              </DetailItem>
              <DetailItem label="Revision">{c.revision}</DetailItem>
              <DetailItem label="Campaign">
                <IntentLink href={networkPath(networkId, `campaigns/${c.campaign_id}`)} className={linkClass}>
                  {campaignName}
                </IntentLink>
              </DetailItem>
              <DetailItem label="Podcast">{podcastName}</DetailItem>
              <DetailItem label="Voice" wide>
                <span className="inline-flex items-start gap-1.5" data-testid="creative-voice">
                  <Bot className="mt-0.5 size-4 shrink-0 text-slate-500" aria-hidden />
                  <span>
                    Synthetic: a copy of the host’s voice, made by speech synthesis <span className="text-slate-600">({c.voice} preset)</span>
                  </span>
                </span>
              </DetailItem>
              <DetailItem label="Voice consent" wide>
                <ConsentMadeUnder creative={c} />
              </DetailItem>
              <DetailItem label="Review" wide>
                <ReviewLine creative={c} />
              </DetailItem>
              <DetailItem label="Length">{formatDuration(c.duration_ms)}</DetailItem>
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
                <span className="whitespace-pre-wrap" data-testid="creative-script">
                  {c.script}
                </span>
              </DetailItem>
            </DetailList>
            <CreativeAudio creative={c} canAdminister={canAdminister} label={label} />
            {canAdminister && <ReviewActions creative={c} label={label} size="md" />}
            <Revisions creative={c} hrefOf={hrefOf} />
          </div>
        );
      }}
    </Loaded>
  );
}

/** The consent the audio was made under, by its host, with the way to the podcast's consents. */
function ConsentMadeUnder({ creative }: { creative: Creative }) {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const consentId = creative.voice_consent_id;
  const consent = useQuery(trpc.voiceConsents.get.queryOptions({ networkId, consentId: consentId ?? '' }, { enabled: consentId !== null }));
  const page = voiceConsentPath(networkId, creative.podcast_id);
  if (!consentId) {
    return (
      <span>
        None yet: {creative.status === 'awaiting_consent' ? 'it waits for the host to grant consent. ' : 'no audio was made. '}
        <IntentLink href={page} className={linkClass}>
          The podcast’s voice consents
        </IntentLink>
      </span>
    );
  }
  const c = consent.data;
  return (
    <span>
      <IntentLink href={page} className={linkClass}>
        {c ? `${c.host_name}’s consent` : 'The host’s consent'}
      </IntentLink>
      {c && (
        <>
          {' '}
          · <StatusBadge status={c.status} />
          {c.granted_at && <span className="block text-xs text-slate-600">Granted {formatDateTime(c.granted_at)}</span>}
        </>
      )}
      <span className="block font-mono text-xs break-all text-slate-600">{consentId}</span>
    </span>
  );
}

function ReviewLine({ creative }: { creative: Creative }) {
  const review = creative.review;
  if (review) {
    return (
      <span data-testid="creative-review">
        {reviewVerb(creative.status)} by {reviewerInWords(review.reviewed_by)}, {formatDateTime(review.reviewed_at)}
        {review.comment && <span className="mt-1 block rounded-md bg-slate-50 px-3 py-2 whitespace-pre-wrap text-slate-800">“{review.comment}”</span>}
      </span>
    );
  }
  if (creative.status === 'pending_approval') {
    return (
      <span data-testid="creative-review">
        Waiting for the host’s approval
        {creative.review_link_expires_at && (
          <span className="block text-xs text-slate-600">Their review link works until {formatDateTime(creative.review_link_expires_at)}</span>
        )}
      </span>
    );
  }
  return <span data-testid="creative-review">Not reviewed yet: the host reviews the audio once it is made.</span>;
}

/** Every revision of the creative's offer, oldest first: what each read, who reviewed it and when. */
function Revisions({ creative, hrefOf }: { creative: Creative; hrefOf: (creativeId: string) => string }) {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const revisions = useQuery(trpc.creatives.revisions.queryOptions({ networkId, creativeId: creative.id }));
  return (
    <section aria-labelledby="revisions-heading">
      <h3 id="revisions-heading" className="text-sm font-semibold text-slate-900">
        Revisions
      </h3>
      <Loaded query={revisions} lines={3}>
        {(list) => (
          <ol className="mt-2 space-y-3 border-l-2 border-slate-200 pl-4" data-testid="creative-revisions">
            {list.items.map((r) => (
              <RevisionEntry key={r.id} revision={r} current={r.id === creative.id} href={hrefOf(r.id)} />
            ))}
          </ol>
        )}
      </Loaded>
    </section>
  );
}

function RevisionEntry({ revision: r, current, href }: { revision: Creative; current: boolean; href: string }) {
  return (
    <li className="text-sm" aria-current={current ? 'true' : undefined}>
      <div className="flex flex-wrap items-center gap-2">
        {current ? (
          <span className="font-medium text-slate-900">Revision {r.revision} (this one)</span>
        ) : (
          <IntentLink href={href} className={linkClass}>
            Revision {r.revision}
          </IntentLink>
        )}
        <StatusBadge status={r.status} />
      </div>
      <p className="text-xs text-slate-600">
        Made {formatDateTime(r.created_at)}
        {r.revision > 1 && ' from the changes requested on the one before'}
      </p>
      {r.review && (
        <p className="mt-1 text-slate-800">
          {reviewVerb(r.status)} by {reviewerInWords(r.review.reviewed_by)}, {formatDateTime(r.review.reviewed_at)}
          {r.review.comment && <span className="block text-slate-700">“{r.review.comment}”</span>}
        </p>
      )}
      <details className="mt-1">
        <summary className="cursor-pointer text-xs text-slate-600 hover:text-slate-900">Script of revision {r.revision}</summary>
        <p className="mt-1 whitespace-pre-wrap text-slate-800">{r.script}</p>
      </details>
    </li>
  );
}
