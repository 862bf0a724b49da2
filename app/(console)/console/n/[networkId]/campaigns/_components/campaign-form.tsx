'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { SCRIPT_MAX_LENGTH, type Campaign } from '@/server/routers/campaigns/campaign.types';
import { createCampaignInput } from '@/server/routers/campaigns/create-campaign.types';
import { updateCampaignInput } from '@/server/routers/campaigns/update-campaign.types';
import { INITIAL_CAMPAIGN_STATUSES } from '@/domain/campaign-transitions';
import { FormDialog, useFormResetOnClose } from '@/app/(console)/_components/form-dialog';
import { CheckboxField, describedByOf, FieldShell, FormField, useZodForm } from '@/app/(console)/_components/ui/form';
import { AmountInput, CurrencyInput, Input, Textarea } from '@/app/(console)/_components/ui/input';
import { namedOptions, optionsOf, Select } from '@/app/(console)/_components/ui/select';
import { toast } from '@/app/(console)/_components/ui/toaster';
import { formatMoney, isoToLocal, useAdvertisers } from '@/app/(console)/_lib/ads';
import { centsFromUnits, linesOf, localDateTime } from '@/app/(console)/_lib/form-values';
import { cn } from '@/app/(console)/_lib/cn';
import { useNetworkId } from '@/app/(console)/_lib/network';
import { useTRPC } from '@/app/(console)/_lib/trpc';

const createShape = createCampaignInput.shape;
const createSchema = createCampaignInput.omit({ networkId: true }).extend({
  starts_at: localDateTime(createShape.starts_at),
  ends_at: localDateTime(createShape.ends_at),
  budget_cents: centsFromUnits(createShape.budget_cents),
  talking_points: linesOf(createShape.talking_points),
  required_lines: linesOf(createShape.required_lines),
});

const updateShape = updateCampaignInput.shape;
const updateSchema = updateCampaignInput.omit({ networkId: true, campaignId: true, version: true, status: true }).extend({
  starts_at: localDateTime(updateShape.starts_at),
  ends_at: localDateTime(updateShape.ends_at),
  budget_cents: centsFromUnits(updateShape.budget_cents),
  talking_points: linesOf(updateShape.talking_points),
  required_lines: linesOf(updateShape.required_lines),
});

/** Two lists as their text boxes show them: one item a line. */
const asLines = (items: readonly string[]) => items.join('\n');
const sameLines = (typed: readonly string[] | undefined, had: readonly string[]) =>
  (typed ?? []).length === had.length && (typed ?? []).every((line, i) => line === had[i]);

type CreateForm = ReturnType<typeof useZodForm<typeof createSchema>>;

/** Script, schedule and budget: the fields create and edit share. */
function CampaignFields({ form }: { form: CreateForm }) {
  const script = String(form.watch('script') ?? '');
  const budget = form.watch('budget_cents');
  const currency = String(form.watch('currency') ?? '');
  const over = script.length > SCRIPT_MAX_LENGTH;
  return (
    <>
      <FormField form={form} name="name" label="Name">
        {(field) => <Input {...field} />}
      </FormField>
      <FormField
        form={form}
        name="script"
        label="Script"
        description={
          <span className="flex justify-between gap-2">
            <span>What the podcast host’s voice reads, word for word.</span>
            <span className={cn('tabular-nums', over && 'font-medium text-red-700')} aria-live="polite">
              {script.length.toLocaleString()} / {SCRIPT_MAX_LENGTH.toLocaleString()} characters
            </span>
          </span>
        }
      >
        {(field) => <Textarea rows={5} {...field} />}
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField form={form} name="starts_at" label="Starts" description="Optional. Your local time.">
          {(field) => <Input type="datetime-local" {...field} />}
        </FormField>
        <FormField form={form} name="ends_at" label="Ends" description="Optional. After the start.">
          {(field) => <Input type="datetime-local" {...field} />}
        </FormField>
      </div>
      <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
        <FormField
          form={form}
          name="budget_cents"
          label="Budget"
          registerOptions={{ valueAsNumber: true }}
          description={
            typeof budget === 'number' && !Number.isNaN(budget)
              ? `Optional. ${formatMoney(Math.round(budget * 100), /^[A-Z]{3}$/.test(currency) ? currency : null)} in total.`
              : 'Optional. In whole units of the currency, e.g. 5000.'
          }
        >
          {(field) => <AmountInput {...field} />}
        </FormField>
        <FormField form={form} name="currency" label="Currency" description="ISO code, e.g. USD.">
          {(field) => <CurrencyInput {...field} />}
        </FormField>
      </div>
      <LinesField
        form={form}
        name="talking_points"
        label="Talking points"
        description="Optional. What the read should get across, one a line: shown to the host when they review the ad."
        rows={3}
      />
      <LinesField
        form={form}
        name="required_lines"
        label="Required lines"
        description="Optional. Lines read word for word, one a line (a disclosure, a promo code): the script, and every revision of it, must contain each."
        rows={3}
      />
      <CheckboxField
        form={form}
        name="competitive_separation"
        label="Competitive separation"
        description="Keep this campaign off a podcast while it carries a competitor (an advertiser sharing a category) in overlapping dates: such an offer cannot be accepted."
      />
    </>
  );
}

/**
 * A list of short texts as a text box, one item a line (talking points, required lines). The
 * API's error about one item (`required_lines.2`) is shown with its line's number.
 */
function LinesField({
  form,
  name,
  label,
  description,
  rows,
}: {
  form: CreateForm;
  name: 'talking_points' | 'required_lines';
  label: string;
  description: string;
  rows: number;
}) {
  const id = useId();
  const error = linesError(form.formState.errors[name]);
  return (
    <FieldShell id={id} label={label} description={description} error={error}>
      <Textarea
        id={id}
        rows={rows}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedByOf(id, description, error)}
        {...form.register(name)}
      />
    </FieldShell>
  );
}

/** The message of a list's error: the list's own, or its first item's, with the line it is on. */
function linesError(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const own = (error as { message?: unknown }).message;
  if (typeof own === 'string') return own;
  for (const [index, item] of Object.entries(error)) {
    const message = (item as { message?: unknown } | undefined)?.message;
    if (/^\d+$/.test(index) && typeof message === 'string') return `Line ${Number(index) + 1}: ${message}`;
  }
  return undefined;
}

export function CreateCampaignDialog({
  open,
  onOpenChange,
  advertiserId,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  advertiserId?: string;
  onCreated?: (campaign: Campaign) => void;
}) {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const queryClient = useQueryClient();
  const advertisers = useAdvertisers(networkId);
  const create = useMutation(
    trpc.campaigns.create.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.campaigns.pathKey() }) }),
  );
  const defaults = {
    name: '',
    advertiser_id: advertiserId ?? '',
    script: '',
    status: 'draft' as const,
    starts_at: '',
    ends_at: '',
    budget_cents: '',
    currency: 'USD',
    competitive_separation: false,
    talking_points: '',
    required_lines: '',
  };
  const { form, close, dialogProps } = useFormResetOnClose(createSchema, defaults, { open, onOpenChange });
  return (
    <FormDialog
      {...dialogProps}
      title="New campaign"
      description="A campaign is an advertiser’s script, read by podcast hosts’ voices."
      className="max-w-2xl"
      submitLabel="Create campaign"
      onSubmit={async (values) => {
        const created = await create.mutateAsync({ ...values, networkId });
        toast.success(`Campaign “${created.name}” created.`);
        close();
        onCreated?.(created);
      }}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField form={form} name="advertiser_id" label="Advertiser">
          {(field) => (
            <Select
              placeholder={
                advertisers.isPending ? 'Loading advertisers…' : advertisers.data?.items.length ? 'Choose an advertiser' : 'No advertisers yet'
              }
              options={namedOptions(advertisers.data?.items)}
              {...field}
            />
          )}
        </FormField>
        <FormField form={form} name="status" label="Start as" description="Only draft and active campaigns can be offered.">
          {(field) => <Select options={optionsOf(INITIAL_CAMPAIGN_STATUSES)} {...field} />}
        </FormField>
      </div>
      <CampaignFields form={form} />
    </FormDialog>
  );
}

export function EditCampaignDialog({ campaign, open, onOpenChange }: { campaign: Campaign; open: boolean; onOpenChange: (open: boolean) => void }) {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const queryClient = useQueryClient();
  // Settled either way: after a conflict the page shows the latest version, so editing again starts from it.
  const update = useMutation(
    trpc.campaigns.update.mutationOptions({ onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.campaigns.pathKey() }) }),
  );
  const defaults = {
    name: campaign.name,
    script: campaign.script,
    starts_at: isoToLocal(campaign.starts_at),
    ends_at: isoToLocal(campaign.ends_at),
    budget_cents: campaign.budget_cents === null ? '' : campaign.budget_cents / 100,
    currency: campaign.currency ?? '',
    competitive_separation: campaign.competitive_separation,
    talking_points: asLines(campaign.talking_points),
    required_lines: asLines(campaign.required_lines),
  };
  const form = useZodForm(updateSchema, { defaultValues: defaults });
  return (
    <FormDialog
      open={open}
      onOpenChange={(next) => {
        if (next) form.reset(defaults);
        onOpenChange(next);
      }}
      title={`Edit ${campaign.name}`}
      description="If someone else changes this campaign meanwhile, saving tells you instead of overwriting their change."
      className="max-w-2xl"
      form={form}
      submitLabel="Save changes"
      onSubmit={async (values) => {
        const raw = form.getValues();
        const blank = (value: unknown) => value === undefined || value === '' || (typeof value === 'number' && Number.isNaN(value));
        await update.mutateAsync({
          ...values,
          // An emptied optional field clears it.
          starts_at: values.starts_at ?? (blank(raw.starts_at) && campaign.starts_at ? null : undefined),
          ends_at: values.ends_at ?? (blank(raw.ends_at) && campaign.ends_at ? null : undefined),
          budget_cents: values.budget_cents ?? (blank(raw.budget_cents) && campaign.budget_cents !== null ? null : undefined),
          currency: values.currency ?? (blank(raw.currency) && campaign.currency ? null : undefined),
          // Lists are sent whole, and only when changed.
          talking_points: sameLines(values.talking_points, campaign.talking_points) ? undefined : (values.talking_points ?? []),
          required_lines: sameLines(values.required_lines, campaign.required_lines) ? undefined : (values.required_lines ?? []),
          networkId,
          campaignId: campaign.id,
          version: campaign.version,
        });
        toast.success('Campaign saved.');
        onOpenChange(false);
      }}
    >
      <CampaignFields form={form as unknown as CreateForm} />
    </FormDialog>
  );
}
