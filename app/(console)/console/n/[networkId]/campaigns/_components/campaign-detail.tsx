'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, Pencil, Play } from 'lucide-react';
import { IntentLink } from '@/app/(console)/_components/ui/intent-link';
import { useParams } from 'next/navigation';
import { useId, useState } from 'react';
import type { Campaign } from '@/server/routers/campaigns/campaign.types';
// The API's own table of moves: the console offers only these (the API still decides; a refusal is shown as a sentence).
import { CAMPAIGN_TRANSITIONS } from '@/domain/campaign-transitions';
import { useBlobUrl } from '@/app/(console)/_components/ui/authorized-audio';
import { CampaignLines } from '@/app/(console)/_components/campaign-lines';
import { StatusBadge } from '@/app/(console)/_components/ui/badge';
import { Button } from '@/app/(console)/_components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/app/(console)/_components/ui/card';
import { ConfirmDialog } from '@/app/(console)/_components/ui/confirm-dialog';
import { LoadingBlock } from '@/app/(console)/_components/ui/skeleton';
import { ErrorState, PageHeader } from '@/app/(console)/_components/ui/states';
import { toast } from '@/app/(console)/_components/ui/toaster';
import { audioErrorSentence, campaignPreviewPath, fetchAuthorizedBlob, formatMoney, useAdvertisers, usePodcasts } from '@/app/(console)/_lib/ads';
import { networkPath, useCanAdminister, useNetworkId } from '@/app/(console)/_lib/network';
import { problemSentence } from '@/app/(console)/_lib/problem';
import { useTRPC } from '@/app/(console)/_lib/trpc';
import { EditCampaignDialog } from './campaign-form';
import { CampaignFlights } from './campaign-flights';
import { CampaignOffers } from './campaign-offers';
import { STATUS_HELP, TRANSITION_ACTIONS, type CampaignStatus } from './campaign-status';
import { formatDateTime } from '@/app/(console)/_lib/dates';

export function CampaignDetail() {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const { campaignId } = useParams<{ campaignId: string }>();
  const id = decodeURIComponent(campaignId);
  const campaign = useQuery(trpc.campaigns.get.queryOptions({ networkId, campaignId: id }));
  const advertisers = useAdvertisers(networkId);

  const back = (
    <IntentLink
      href={networkPath(networkId, 'campaigns')}
      className="mb-3 inline-flex items-center gap-1 text-sm text-indigo-700 underline-offset-4 hover:underline"
    >
      <ArrowLeft className="size-4" aria-hidden /> All campaigns
    </IntentLink>
  );

  if (campaign.error) {
    return (
      <>
        {back}
        <PageHeader title="Campaign" />
        <ErrorState error={campaign.error} onRetry={() => campaign.refetch()} />
      </>
    );
  }
  if (!campaign.data) {
    return (
      <>
        {back}
        <PageHeader title="Campaign" />
        <LoadingBlock />
      </>
    );
  }
  const c = campaign.data;
  const advertiser = advertisers.data?.items.find((a) => a.id === c.advertiser_id);
  return (
    <>
      {back}
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-3">
            {c.name} <StatusBadge status={c.status} className="text-sm" />
          </span>
        }
        description={`${advertiser ? `${advertiser.name} · ` : ''}${STATUS_HELP[c.status]}`}
        actions={<EditButton campaign={c} />}
      />
      <div className="grid gap-6 lg:grid-cols-[3fr_2fr]">
        <Card>
          <CardHeader>
            <CardTitle>Script</CardTitle>
            <CardDescription>{c.script.length.toLocaleString()} of 2,000 characters, read by the host’s voice.</CardDescription>
          </CardHeader>
          <CardContent>
            {c.script ? (
              <p className="text-sm whitespace-pre-wrap text-slate-800">{c.script}</p>
            ) : (
              <p className="text-sm text-slate-500">No script yet. Edit the campaign to write one.</p>
            )}
            <CampaignLines talkingPoints={c.talking_points} requiredLines={c.required_lines} script={c.script} className="mt-6" />
            <dl className="mt-6 grid grid-cols-1 gap-4 text-sm sm:grid-cols-2">
              <Fact term="Advertiser" value={advertiser?.name ?? c.advertiser_id} />
              <Fact term="Budget" value={formatMoney(c.budget_cents, c.currency)} />
              <Fact term="Starts" value={formatDateTime(c.starts_at)} />
              <Fact term="Ends" value={formatDateTime(c.ends_at)} />
              <Fact term="Competitive separation" value={c.competitive_separation ? 'On: kept apart from competitors' : 'Off'} />
              <Fact term="Created" value={formatDateTime(c.created_at)} />
              <Fact term="Last changed" value={`${formatDateTime(c.updated_at)} (version ${c.version})`} />
            </dl>
          </CardContent>
        </Card>
        <div className="space-y-6">
          <StatusCard campaign={c} onRefresh={() => campaign.refetch()} />
          <PreviewCard campaign={c} />
        </div>
      </div>
      <div className="mt-6">
        <CampaignFlights campaign={c} />
      </div>
      <div className="mt-6">
        <CampaignOffers networkId={networkId} campaignId={c.id} />
      </div>
    </>
  );
}

function Fact({ term, value }: { term: string; value: string }) {
  return (
    <div>
      <dt className="text-xs font-medium tracking-wide text-slate-600 uppercase">{term}</dt>
      <dd className="mt-0.5 text-slate-900">{value}</dd>
    </div>
  );
}

function EditButton({ campaign }: { campaign: Campaign }) {
  const networkId = useNetworkId();
  const canAdminister = useCanAdminister(networkId);
  const [open, setOpen] = useState(false);
  if (!canAdminister || campaign.status === 'archived') return null;
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        <Pencil aria-hidden /> Edit
      </Button>
      <EditCampaignDialog campaign={campaign} open={open} onOpenChange={setOpen} />
    </>
  );
}

function StatusCard({ campaign, onRefresh }: { campaign: Campaign; onRefresh: () => void }) {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const canAdminister = useCanAdminister(networkId);
  const queryClient = useQueryClient();
  const [refusal, setRefusal] = useState<string | null>(null);
  const update = useMutation(
    trpc.campaigns.update.mutationOptions({
      onSuccess: (updated) => {
        setRefusal(null);
        queryClient.setQueryData(trpc.campaigns.get.queryKey({ networkId, campaignId: updated.id }), updated);
        void queryClient.invalidateQueries({ queryKey: trpc.campaigns.list.pathKey() });
        toast.success(`Campaign is now ${updated.status}.`);
      },
      onError: (error) => {
        setRefusal(problemSentence(error, 'change the status'));
        // Show the state the API holds now (someone may have moved it meanwhile).
        onRefresh();
      },
    }),
  );
  const allowed = CAMPAIGN_TRANSITIONS[campaign.status];
  // A status change is checked by the API's state machine against the campaign's current state, so it is sent
  // without `version`: a move that is no longer allowed is refused with a sentence naming both states.
  const move = (status: CampaignStatus) => update.mutateAsync({ networkId, campaignId: campaign.id, status });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Status</CardTitle>
        <CardDescription>draft → active ⇄ paused → completed; any campaign can be archived, which is final.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        {refusal && (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
            {refusal}
          </p>
        )}
        {allowed.length === 0 ? (
          <p className="text-sm text-slate-600">An archived campaign cannot change status.</p>
        ) : !canAdminister ? (
          <p className="text-sm text-slate-600">Your key is read only: an administrator can change the status.</p>
        ) : (
          <ul className="space-y-2">
            {allowed.map((to) => {
              const action = TRANSITION_ACTIONS[to];
              const label = action.label(campaign.status);
              const final = to === 'archived' || to === 'completed';
              return (
                <li key={to} className="flex flex-col gap-1 sm:flex-row sm:items-center sm:gap-3">
                  {final ? (
                    <ConfirmDialog
                      trigger={
                        <Button variant={to === 'archived' ? 'secondary' : 'secondary'} size="sm" className="sm:w-28" disabled={update.isPending}>
                          {label}
                        </Button>
                      }
                      title={`${label} “${campaign.name}”?`}
                      description={action.help}
                      confirmLabel={label}
                      destructive={to === 'archived'}
                      onConfirm={async () => {
                        await move(to).catch(() => undefined);
                      }}
                    />
                  ) : (
                    <Button
                      size="sm"
                      className="sm:w-28"
                      variant={to === 'active' ? 'primary' : 'secondary'}
                      loading={update.isPending && update.variables?.status === to}
                      disabled={update.isPending}
                      onClick={() => move(to).catch(() => undefined)}
                    >
                      {label}
                    </Button>
                  )}
                  <span className="text-xs text-slate-600">{action.help}</span>
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function PreviewCard({ campaign }: { campaign: Campaign }) {
  const networkId = useNetworkId();
  const podcasts = usePodcasts(networkId);
  const selectId = useId();
  const [podcastId, setPodcastId] = useState('');
  const preview = useMutation({
    mutationFn: (podcast: string) =>
      fetchAuthorizedBlob(campaignPreviewPath(networkId, campaign.id), { method: 'POST', body: { podcast_id: podcast } }),
  });
  const src = useBlobUrl(preview.data);
  const items = podcasts.data?.items ?? [];
  const chosen = podcastId || items[0]?.id || '';
  return (
    <Card>
      <CardHeader>
        <CardTitle>Hear it in a host’s voice</CardTitle>
        <CardDescription>A short preview of the start of the script, read in a podcast’s voice preset. Nothing is saved.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        {podcasts.error ? (
          <ErrorState error={podcasts.error} onRetry={() => podcasts.refetch()} />
        ) : items.length === 0 && !podcasts.isPending ? (
          <p className="text-sm text-slate-600">
            Add a podcast first:{' '}
            <IntentLink className="text-indigo-700 underline underline-offset-4" href={networkPath(networkId, 'podcasts')}>
              Podcasts
            </IntentLink>
            .
          </p>
        ) : (
          // A list of choices rather than a select: a podcast's name wraps instead of being cut off.
          <div className="space-y-2">
            <fieldset className="space-y-1.5" disabled={podcasts.isPending}>
              <legend className="text-sm font-medium text-slate-800">Podcast</legend>
              <div className="max-h-56 space-y-1 overflow-y-auto rounded-md border border-slate-200 p-1" data-testid="preview-podcasts">
                {items.map((p) => (
                  <label
                    key={p.id}
                    className="flex cursor-pointer items-start gap-2 rounded px-2 py-1.5 text-sm hover:bg-slate-50 has-[:checked]:bg-indigo-50"
                  >
                    <input
                      type="radio"
                      name={selectId}
                      value={p.id}
                      checked={chosen === p.id}
                      onChange={() => setPodcastId(p.id)}
                      className="mt-0.5 accent-indigo-600"
                    />
                    <span className="min-w-0 break-words">
                      <span className="font-medium text-slate-900">{p.name}</span>
                      <span className="block text-xs text-slate-600">
                        Host {p.host_name} · <span className="capitalize">{p.voice}</span> voice
                      </span>
                    </span>
                  </label>
                ))}
              </div>
            </fieldset>
            <Button variant="secondary" disabled={!chosen || !campaign.script} loading={preview.isPending} onClick={() => preview.mutate(chosen)}>
              <Play aria-hidden /> Preview
            </Button>
          </div>
        )}
        {!campaign.script && <p className="text-xs text-slate-600">The campaign has no script to read yet.</p>}
        {preview.error && (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
            {audioErrorSentence(preview.error, 'make the preview')}
          </p>
        )}
        {src && !preview.isPending && <audio controls autoPlay={false} src={src} aria-label="Voice preview" className="w-full" />}
      </CardContent>
    </Card>
  );
}
