'use client';

import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Mic, Pencil } from 'lucide-react';
import { useMemo, useState } from 'react';
import { createPodcastInput } from '@/server/routers/podcasts/create-podcast.types';
import { BLOCKED_ADVERTISERS_MAX, EXCLUDED_CATEGORIES_MAX, voiceSchema, type Podcast } from '@/server/routers/podcasts/podcast.types';
import { updatePodcastInput } from '@/server/routers/podcasts/update-podcast.types';
import { EditFormDialog, FormDialog, useFormResetOnClose } from '@/app/(console)/_components/form-dialog';
import { CategoryBadges } from '@/app/(console)/_components/category-badges';
import { actionsColumn, externalLinkColumn, ListPage, nameColumn } from '@/app/(console)/_components/list-page';
import { CategoryPicker, MultiPicker } from '@/app/(console)/_components/multi-picker';
import { Badge } from '@/app/(console)/_components/ui/badge';
import { Button } from '@/app/(console)/_components/ui/button';
import { ConfirmDialog } from '@/app/(console)/_components/ui/confirm-dialog';
import type { DataTableColumn } from '@/app/(console)/_components/ui/data-table';
import { FormField, useZodForm } from '@/app/(console)/_components/ui/form';
import { Input } from '@/app/(console)/_components/ui/input';
import { optionsOf, Select } from '@/app/(console)/_components/ui/select';
import { toast } from '@/app/(console)/_components/ui/toaster';
import { VoiceConsentLink } from './voice-consent-link';
import { useAdCategories } from '@/app/(console)/_lib/ad-categories';
import { namesById, useAdvertisers } from '@/app/(console)/_lib/ads';
import { useCanAdminister, useNetworkId } from '@/app/(console)/_lib/network';
import { byCursor, pagedList } from '@/app/(console)/_lib/paged-list';
import { problemSentence } from '@/app/(console)/_lib/problem';
import { editedOptional } from '@/app/(console)/_lib/form-values';
import { useTRPC } from '@/app/(console)/_lib/trpc';
import { formatDateTime } from '@/app/(console)/_lib/dates';

const createSchema = createPodcastInput.omit({ networkId: true });
const updateSchema = updatePodcastInput.omit({ networkId: true, podcastId: true, version: true });

/** The API's voice presets (voiceSchema), described for people. */
const VOICES = optionsOf(voiceSchema.options, {
  default: 'Default — neutral',
  warm: 'Warm — lower, relaxed',
  bright: 'Bright — higher, lively',
  deep: 'Deep — low and slow',
  fast: 'Fast — quick delivery',
  calm: 'Calm — slow and even',
} satisfies Record<Podcast['voice'], string>);

const OPT_IN_EXPLAINED =
  'Opting in records that the show agrees to carry host-read ads from this network: only opted-in podcasts can receive offers, and their creatives are read in the podcast’s voice preset.';

export function PodcastsPage() {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const canAdminister = useCanAdminister(networkId);
  const list = pagedList(useInfiniteQuery(trpc.podcasts.list.infiniteQueryOptions({ networkId, limit: 50 }, byCursor)));
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Podcast | null>(null);
  const taxonomy = useAdCategories().data;
  const advertisers = useAdvertisers(networkId);
  const advertiserNames = useMemo(() => namesById(advertisers.data?.items), [advertisers.data]);

  const columns = useMemo<DataTableColumn<Podcast>[]>(
    () => [
      // Its brand-safety rules under its name: a column of their own would squeeze the row (mostly "—").
      nameColumn<Podcast>('Podcast', undefined, ({ excluded_categories: excluded, blocked_advertiser_ids: blocked, name }) => (
        <>
          {excluded.length > 0 && (
            <div>
              <span className="text-xs text-slate-600">Excludes</span>
              <CategoryBadges ids={excluded} label={`Categories ${name} excludes`} taxonomy={taxonomy} />
            </div>
          )}
          {blocked.length > 0 && (
            <p className="max-w-64 text-sm">
              <span className="text-xs text-slate-600">Blocks</span> {blocked.map((id) => advertiserNames.get(id) ?? id).join(', ')}
            </p>
          )}
        </>
      )),
      { accessorKey: 'host_name', header: 'Host' },
      { accessorKey: 'voice', header: 'Voice', cell: ({ row }) => <span className="capitalize">{row.original.voice}</span> },
      {
        accessorKey: 'opt_in_status',
        header: 'Opt-in',
        cell: ({ row }) =>
          row.original.opt_in_status === 'opted_in' ? (
            <Badge tone="success" title={`Opted in ${formatDateTime(row.original.opted_in_at)}`}>
              <CheckCircle2 className="mr-1 size-3" aria-hidden /> Opted in
            </Badge>
          ) : row.original.opt_in_status === 'opted_out' ? (
            <Badge tone="neutral">Opted out</Badge>
          ) : (
            <Badge tone="warning">Not opted in</Badge>
          ),
      },
      {
        ...externalLinkColumn<Podcast>('rss_url', 'Feed', (_href, podcast) => (
          <>
            RSS<span className="sr-only"> feed of {podcast.name}</span>
          </>
        )),
        enableSorting: false,
      },
      actionsColumn((podcast) =>
        canAdminister ? (
          <div className="flex justify-end gap-1 whitespace-nowrap">
            <Button variant="ghost" size="sm" onClick={() => setEditing(podcast)} aria-label={`Edit ${podcast.name}`}>
              <Pencil aria-hidden /> Edit
            </Button>
            <OptInActions podcast={podcast} />
            <VoiceConsentLink podcast={podcast} />
          </div>
        ) : null,
      ),
    ],
    [canAdminister, taxonomy, advertiserNames],
  );

  return (
    <>
      <ListPage
        title="Podcasts"
        exportCsv={{ path: `/networks/${networkId}/podcasts`, params: {} }}
        description="The shows of this network. A podcast must opt in before it can be offered campaigns; its voice preset is the voice its ads are read in."
        create={canAdminister ? { label: 'New podcast', onClick: () => setCreating(true) } : undefined}
        list={list}
        columns={columns}
        empty={{
          icon: <Mic className="size-6" />,
          title: 'No podcasts yet',
          description: 'Add a show, choose the voice its ads are read in, then opt it in.',
        }}
      />
      <CreatePodcastDialog open={creating} onOpenChange={setCreating} />
      {editing && <EditPodcastDialog podcast={editing} onClose={() => setEditing(null)} />}
    </>
  );
}

function OptInActions({ podcast }: { podcast: Podcast }) {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const queryClient = useQueryClient();
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.podcasts.pathKey() });
  const optIn = useMutation(trpc.podcasts.optIn.mutationOptions({ onSuccess: invalidate }));
  const optOut = useMutation(trpc.podcasts.optOut.mutationOptions({ onSuccess: invalidate }));
  if (podcast.opt_in_status === 'opted_in') {
    return (
      <ConfirmDialog
        trigger={
          <Button variant="ghost" size="sm" aria-label={`Opt out ${podcast.name}`} onClick={() => optOut.reset()}>
            Opt out
          </Button>
        }
        title={`Opt ${podcast.name} out?`}
        description="New offers can no longer be made to this podcast. Offers already accepted and their creatives are not affected. You can opt it in again at any time."
        confirmLabel="Opt out"
        error={optOut.error ? problemSentence(optOut.error, 'opt the podcast out') : undefined}
        onConfirm={async () => {
          await optOut.mutateAsync({ networkId, podcastId: podcast.id });
          toast.success(`${podcast.name} opted out.`);
        }}
      />
    );
  }
  return (
    <ConfirmDialog
      trigger={
        <Button variant="secondary" size="sm" aria-label={`Opt in ${podcast.name}`} onClick={() => optIn.reset()}>
          Opt in
        </Button>
      }
      title={`Opt ${podcast.name} in?`}
      description={`${OPT_IN_EXPLAINED} Opting in twice changes nothing.`}
      confirmLabel="Opt in"
      destructive={false}
      error={optIn.error ? problemSentence(optIn.error, 'opt the podcast in') : undefined}
      onConfirm={async () => {
        await optIn.mutateAsync({ networkId, podcastId: podcast.id });
        toast.success(`${podcast.name} opted in: it can now receive offers.`);
      }}
    />
  );
}

function CreatePodcastDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const queryClient = useQueryClient();
  const create = useMutation(
    trpc.podcasts.create.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.podcasts.pathKey() }) }),
  );
  const defaults = { name: '', host_name: '', voice: 'default' as const, rss_url: '', excluded_categories: [], blocked_advertiser_ids: [] };
  const { form, close, dialogProps } = useFormResetOnClose(createSchema, defaults, { open, onOpenChange });
  return (
    <FormDialog
      {...dialogProps}
      title="New podcast"
      description="A new podcast is not opted in: opt it in from the list when the show agrees to carry ads."
      submitLabel="Add podcast"
      onSubmit={async (values) => {
        const created = await create.mutateAsync({ ...values, networkId });
        toast.success(`Podcast “${created.name}” added.`);
        close();
      }}
    >
      <PodcastFields form={form} />
    </FormDialog>
  );
}

type PodcastForm = ReturnType<typeof useZodForm<typeof createSchema>> | ReturnType<typeof useZodForm<typeof updateSchema>>;

function PodcastFields({ form }: { form: PodcastForm }) {
  // Both forms have the same fields.
  const f = form as ReturnType<typeof useZodForm<typeof createSchema>>;
  const networkId = useNetworkId();
  const advertisers = useAdvertisers(networkId);
  return (
    <>
      <FormField form={f} name="name" label="Podcast name">
        {(field) => <Input {...field} />}
      </FormField>
      <FormField form={f} name="host_name" label="Host name" description="The host whose voice reads the ads.">
        {(field) => <Input {...field} />}
      </FormField>
      <FormField
        form={f}
        name="voice"
        label="Voice preset"
        description="Creatives for this podcast are read in this voice. Hear it from a campaign’s page."
      >
        {(field) => <Select options={VOICES} {...field} />}
      </FormField>
      <FormField form={f} name="rss_url" label="RSS feed URL" description="Optional. The show’s feed, http or https.">
        {(field) => <Input type="url" placeholder="https://example.com/feed.xml" {...field} />}
      </FormField>
      <CategoryPicker
        control={f.control}
        name="excluded_categories"
        label="Excluded categories"
        description="Ads the show does not carry: advertisers in these categories, or in one below them, are not offered to it."
        placeholder="Search categories, e.g. gambling"
        max={EXCLUDED_CATEGORIES_MAX}
      />
      <MultiPicker
        control={f.control}
        name="blocked_advertiser_ids"
        label="Blocked advertisers"
        noun={['advertiser', 'advertisers']}
        description="Advertisers the show does not carry, whatever their categories."
        options={advertisers.data?.items.map((a) => ({ id: a.id, label: a.name, detail: a.website?.replace(/^https?:\/\//, '') }))}
        loadError={advertisers.error}
        onRetry={() => advertisers.refetch()}
        max={BLOCKED_ADVERTISERS_MAX}
      />
    </>
  );
}

function EditPodcastDialog({ podcast, onClose }: { podcast: Podcast; onClose: () => void }) {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const queryClient = useQueryClient();
  // Settled either way: after a conflict the list shows the latest version, so editing again starts from it.
  const update = useMutation(
    trpc.podcasts.update.mutationOptions({ onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.podcasts.pathKey() }) }),
  );
  const form = useZodForm(updateSchema, {
    defaultValues: {
      name: podcast.name,
      host_name: podcast.host_name,
      voice: podcast.voice,
      rss_url: podcast.rss_url ?? '',
      excluded_categories: podcast.excluded_categories,
      blocked_advertiser_ids: podcast.blocked_advertiser_ids,
    },
  });
  return (
    <EditFormDialog
      name={podcast.name}
      onClose={onClose}
      description="A new voice preset applies to creatives made from now on. If someone else changes this podcast meanwhile, saving tells you instead of overwriting their change."
      form={form}
      onSubmit={async (values) => {
        const raw = form.getValues();
        await update.mutateAsync({
          ...values,
          rss_url: editedOptional(values.rss_url, raw.rss_url, podcast.rss_url),
          // The lists are replaced whole: each sent only when it changed.
          excluded_categories: form.formState.dirtyFields.excluded_categories ? (values.excluded_categories ?? []) : undefined,
          blocked_advertiser_ids: form.formState.dirtyFields.blocked_advertiser_ids ? (values.blocked_advertiser_ids ?? []) : undefined,
          networkId,
          podcastId: podcast.id,
          version: podcast.version,
        });
        toast.success('Podcast saved.');
        onClose();
      }}
    >
      <PodcastFields form={form} />
    </EditFormDialog>
  );
}
