'use client';

import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Mic, Pencil } from 'lucide-react';
import { useMemo, useState } from 'react';
import { createPodcastInput } from '@/server/routers/podcasts/create-podcast.types';
import { voiceSchema, type Podcast } from '@/server/routers/podcasts/podcast.types';
import { updatePodcastInput } from '@/server/routers/podcasts/update-podcast.types';
import { EditFormDialog, FormDialog, useFormResetOnClose } from '@/app/(console)/_components/form-dialog';
import { actionsColumn, externalLinkColumn, ListPage, nameColumn } from '@/app/(console)/_components/list-page';
import { Badge } from '@/app/(console)/_components/ui/badge';
import { Button } from '@/app/(console)/_components/ui/button';
import { ConfirmDialog } from '@/app/(console)/_components/ui/confirm-dialog';
import type { DataTableColumn } from '@/app/(console)/_components/ui/data-table';
import { FormField, useZodForm } from '@/app/(console)/_components/ui/form';
import { Input } from '@/app/(console)/_components/ui/input';
import { optionsOf, Select } from '@/app/(console)/_components/ui/select';
import { toast } from '@/app/(console)/_components/ui/toaster';
import { useCanAdminister, useNetworkId } from '@/app/(console)/_lib/network';
import { byCursor, pagedList } from '@/app/(console)/_lib/paged-list';
import { VoiceConsentLink } from './voice-consent-link';
import { useAdCategories } from '@/app/(console)/_lib/ad-categories';
import { namesById, useAdvertisers } from '@/app/(console)/_lib/ads';
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

  const columns = useMemo<DataTableColumn<Podcast>[]>(
    () => [
      nameColumn('Podcast'),
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
          </div>
        ) : null,
      ),
    ],
    [canAdminister],
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
            <VoiceConsentLink podcast={podcast} />
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
  const defaults = { name: '', host_name: '', voice: 'default' as const, rss_url: '' };
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
  // Both forms have the same four fields.
  const f = form as ReturnType<typeof useZodForm<typeof createSchema>>;
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
    defaultValues: { name: podcast.name, host_name: podcast.host_name, voice: podcast.voice, rss_url: podcast.rss_url ?? '' },
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
