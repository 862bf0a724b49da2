'use client';

import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { Building2, Pencil, Trash2 } from 'lucide-react';
import { IntentLink } from '@/app/(console)/_components/ui/intent-link';
import { useMemo, useState } from 'react';
import { createAdvertiserInput } from '@/server/routers/advertisers/create-advertiser.types';
import { updateAdvertiserInput } from '@/server/routers/advertisers/update-advertiser.types';
import { ADVERTISER_CATEGORIES_MAX, type Advertiser } from '@/server/routers/advertisers/advertiser.types';
import { EditFormDialog, FormDialog } from '@/app/(console)/_components/form-dialog';
import { CategoryBadges } from '@/app/(console)/_components/category-badges';
import { CategoryPicker } from '@/app/(console)/_components/multi-picker';
import { actionsColumn, dateTimeColumn, externalLinkColumn, ListPage, nameColumn, Unset } from '@/app/(console)/_components/list-page';
import { Button } from '@/app/(console)/_components/ui/button';
import { ConfirmDialog } from '@/app/(console)/_components/ui/confirm-dialog';
import type { DataTableColumn } from '@/app/(console)/_components/ui/data-table';
import { FormField, useZodForm } from '@/app/(console)/_components/ui/form';
import { Input } from '@/app/(console)/_components/ui/input';
import { toast } from '@/app/(console)/_components/ui/toaster';
import { useAdCategories } from '@/app/(console)/_lib/ad-categories';
import { networkPath, useCanAdminister, useNetworkId } from '@/app/(console)/_lib/network';
import { byCursor, pagedList } from '@/app/(console)/_lib/paged-list';
import { problemSentence } from '@/app/(console)/_lib/problem';
import { editedOptional } from '@/app/(console)/_lib/form-values';
import { useTRPC } from '@/app/(console)/_lib/trpc';

const createSchema = createAdvertiserInput.omit({ networkId: true });
const updateSchema = updateAdvertiserInput.omit({ networkId: true, advertiserId: true, version: true });

export function AdvertisersPage() {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const canAdminister = useCanAdminister(networkId);
  const list = pagedList(useInfiniteQuery(trpc.advertisers.list.infiniteQueryOptions({ networkId, limit: 50 }, byCursor)));
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Advertiser | null>(null);
  const taxonomy = useAdCategories().data;

  const columns = useMemo<DataTableColumn<Advertiser>[]>(
    () => [
      // What it sells under its name: a column of its own would not leave the row's buttons room at 1280 px.
      nameColumn<Advertiser>('Name', undefined, (advertiser) =>
        advertiser.categories.length > 0 ? (
          <CategoryBadges ids={advertiser.categories} label={`Categories of ${advertiser.name}`} taxonomy={taxonomy} />
        ) : null,
      ),
      externalLinkColumn('website', 'Website', (href) => href.replace(/^https?:\/\//, '')),
      { accessorKey: 'contact_email', header: 'Contact', cell: ({ row }) => row.original.contact_email ?? <Unset /> },
      dateTimeColumn('created_at', 'Created'),
      actionsColumn((advertiser) => (
        <div className="flex justify-end gap-1 whitespace-nowrap">
          <Button asChild variant="ghost" size="sm">
            <IntentLink href={`${networkPath(networkId, 'campaigns')}?advertiser=${encodeURIComponent(advertiser.id)}`}>Campaigns</IntentLink>
          </Button>
          {canAdminister && (
            <>
              <Button variant="ghost" size="sm" onClick={() => setEditing(advertiser)} aria-label={`Edit ${advertiser.name}`}>
                <Pencil aria-hidden /> Edit
              </Button>
              <DeleteAdvertiser advertiser={advertiser} />
            </>
          )}
        </div>
      )),
    ],
    [canAdminister, networkId, taxonomy],
  );

  return (
    <>
      <ListPage
        title="Advertisers"
        exportCsv={{ path: `/networks/${networkId}/advertisers`, params: {} }}
        description="The brands that run campaigns in this network. Create an advertiser first, then its campaigns."
        create={canAdminister ? { label: 'New advertiser', onClick: () => setCreating(true) } : undefined}
        list={list}
        columns={columns}
        empty={{
          icon: <Building2 className="size-6" />,
          title: 'No advertisers yet',
          description: 'An advertiser is the brand behind campaigns. Add one to start a campaign.',
        }}
      />
      <CreateAdvertiserDialog open={creating} onOpenChange={setCreating} />
      {editing && <EditAdvertiserDialog advertiser={editing} onClose={() => setEditing(null)} />}
    </>
  );
}

function CreateAdvertiserDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const queryClient = useQueryClient();
  const create = useMutation(
    trpc.advertisers.create.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.advertisers.pathKey() }) }),
  );
  const form = useZodForm(createSchema, { defaultValues: { name: '', website: '', contact_email: '', categories: [] } });
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      resetOnDismiss
      title="New advertiser"
      description="The brand behind one or more campaigns."
      form={form}
      submitLabel="Create advertiser"
      onSubmit={async (values) => {
        const created = await create.mutateAsync({ ...values, networkId });
        toast.success(`Advertiser “${created.name}” created.`);
        form.reset();
        onOpenChange(false);
      }}
    >
      <AdvertiserFields form={form} />
    </FormDialog>
  );
}

type AdvertiserForm = ReturnType<typeof useZodForm<typeof createSchema>> | ReturnType<typeof useZodForm<typeof updateSchema>>;

function AdvertiserFields({ form }: { form: AdvertiserForm }) {
  // Both forms have the same fields.
  const f = form as ReturnType<typeof useZodForm<typeof createSchema>>;
  return (
    <>
      <FormField form={f} name="name" label="Name">
        {(field) => <Input autoComplete="organization" {...field} />}
      </FormField>
      <FormField form={f} name="website" label="Website" description="Optional. An http or https address.">
        {(field) => <Input type="url" placeholder="https://example.com" {...field} />}
      </FormField>
      <FormField form={f} name="contact_email" label="Contact email" description="Optional. Who to talk to at the advertiser.">
        {(field) => <Input type="email" autoComplete="email" {...field} />}
      </FormField>
      <CategoryPicker
        control={f.control}
        name="categories"
        label="Categories"
        description="What the advertiser sells. Podcasts that exclude one of these (or a category above it) are not offered its campaigns."
        placeholder="Search categories, e.g. mattresses"
        max={ADVERTISER_CATEGORIES_MAX}
      />
    </>
  );
}

function EditAdvertiserDialog({ advertiser, onClose }: { advertiser: Advertiser; onClose: () => void }) {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const queryClient = useQueryClient();
  // Settled either way: after a conflict the list shows the latest version, so editing again starts from it.
  const update = useMutation(
    trpc.advertisers.update.mutationOptions({ onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.advertisers.pathKey() }) }),
  );
  const form = useZodForm(updateSchema, {
    defaultValues: {
      name: advertiser.name,
      website: advertiser.website ?? '',
      contact_email: advertiser.contact_email ?? '',
      categories: advertiser.categories,
    },
  });
  return (
    <EditFormDialog
      name={advertiser.name}
      onClose={onClose}
      description="If someone else changes this advertiser meanwhile, saving tells you instead of overwriting their change."
      form={form}
      onSubmit={async (values) => {
        const raw = form.getValues();
        await update.mutateAsync({
          ...values,
          website: editedOptional(values.website, raw.website, advertiser.website),
          contact_email: editedOptional(values.contact_email, raw.contact_email, advertiser.contact_email),
          // The list is replaced whole: sent only when it changed.
          categories: form.formState.dirtyFields.categories ? (values.categories ?? []) : undefined,
          networkId,
          advertiserId: advertiser.id,
          version: advertiser.version,
        });
        toast.success('Advertiser saved.');
        onClose();
      }}
    >
      <AdvertiserFields form={form} />
    </EditFormDialog>
  );
}

function DeleteAdvertiser({ advertiser }: { advertiser: Advertiser }) {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const queryClient = useQueryClient();
  const remove = useMutation(
    trpc.advertisers.remove.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.advertisers.pathKey() }) }),
  );
  return (
    <ConfirmDialog
      trigger={
        <Button variant="ghost" size="sm" aria-label={`Delete ${advertiser.name}`} onClick={() => remove.reset()}>
          <Trash2 aria-hidden /> Delete
        </Button>
      }
      title={`Delete ${advertiser.name}?`}
      description={
        <>
          The advertiser disappears from the console and the API. Its completed and archived campaigns keep their history (and their offers and
          creatives). An advertiser with campaigns still in draft, active or paused cannot be deleted: complete or archive those campaigns first.
        </>
      }
      confirmLabel="Delete advertiser"
      error={remove.error ? problemSentence(remove.error, 'delete the advertiser') : undefined}
      onConfirm={async () => {
        await remove.mutateAsync({ networkId, advertiserId: advertiser.id });
        toast.success(`Advertiser “${advertiser.name}” deleted.`);
      }}
    />
  );
}
