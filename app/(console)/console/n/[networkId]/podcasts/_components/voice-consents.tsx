'use client';

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, Mic2 } from 'lucide-react';
import { useParams } from 'next/navigation';
import { useMemo, useState } from 'react';
import { Controller } from 'react-hook-form';
import { z } from 'zod';
import { scopeInWords, type VoiceConsentStatus } from '@/domain/voice-consent';
import { requestVoiceConsentFields, scopeNamesItsAdvertisers } from '@/server/routers/voice-consents/request-voice-consent.types';
import type { VoiceConsent } from '@/server/routers/voice-consents/voice-consent.types';
import { FormDialog, useFormResetOnClose } from '@/app/(console)/_components/form-dialog';
import { actionsColumn, dateTimeColumn } from '@/app/(console)/_components/list-page';
import { Badge, type BadgeTone } from '@/app/(console)/_components/ui/badge';
import { Button } from '@/app/(console)/_components/ui/button';
import { Checkbox } from '@/app/(console)/_components/ui/checkbox';
import { ConfirmDialog } from '@/app/(console)/_components/ui/confirm-dialog';
import { DataTable, type DataTableColumn } from '@/app/(console)/_components/ui/data-table';
import { FieldShell, FormField } from '@/app/(console)/_components/ui/form';
import { Input } from '@/app/(console)/_components/ui/input';
import { IntentLink } from '@/app/(console)/_components/ui/intent-link';
import { optionsOf, Select } from '@/app/(console)/_components/ui/select';
import { EmptyState, ErrorState, PageHeader } from '@/app/(console)/_components/ui/states';
import { toast } from '@/app/(console)/_components/ui/toaster';
import { namesById, useAdvertisers } from '@/app/(console)/_lib/ads';
import { formatDateTime } from '@/app/(console)/_lib/dates';
import { localDateTime } from '@/app/(console)/_lib/form-values';
import { networkPath, useCanAdminister, useNetworkId } from '@/app/(console)/_lib/network';
import { byCursor, pagedList, pagedTable } from '@/app/(console)/_lib/paged-list';
import { problemSentence } from '@/app/(console)/_lib/problem';
import { useTRPC } from '@/app/(console)/_lib/trpc';

const STATUS_TONES: Record<VoiceConsentStatus, BadgeTone> = {
  pending: 'warning',
  granted: 'success',
  refused: 'danger',
  revoked: 'danger',
  expired: 'neutral',
};

const SCOPES = optionsOf(requestVoiceConsentFields.shape.scope.options, {
  all_campaigns: 'All campaigns of the network',
  advertisers: 'Only some advertisers',
});

/** The request form: the API's fields, the expiry typed in local time. */
const requestForm = requestVoiceConsentFields
  .extend({ expires_at: localDateTime(requestVoiceConsentFields.shape.expires_at) })
  .superRefine(scopeNamesItsAdvertisers);

/**
 * A podcast's voice consents (/podcasts/{podcastId}/voice-consent): who was asked, for what, and
 * where each stands; administrators ask the host ("Request consent": the API emails them the link
 * to the consent page) and revoke. Every role reads.
 */
export function VoiceConsents() {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const podcastId = decodeURIComponent(useParams<{ podcastId: string }>().podcastId);
  const canAdminister = useCanAdminister(networkId);
  const podcast = useQuery(trpc.podcasts.get.queryOptions({ networkId, podcastId }));
  const advertisers = useAdvertisers(networkId);
  const advertiserNames = useMemo(() => namesById(advertisers.data?.items), [advertisers.data]);
  const list = pagedList(useInfiniteQuery(trpc.voiceConsents.list.infiniteQueryOptions({ networkId, podcast_id: podcastId, limit: 50 }, byCursor)));
  const [requesting, setRequesting] = useState(false);

  const columns = useMemo<DataTableColumn<VoiceConsent>[]>(
    () => [
      {
        accessorKey: 'host_name',
        header: 'Host',
        cell: ({ row }) => (
          <div className="min-w-0">
            <div className="font-medium text-slate-900">{row.original.host_name}</div>
            <div className="text-xs break-all text-slate-600">{row.original.host_email}</div>
          </div>
        ),
      },
      {
        id: 'scope',
        header: 'Covers',
        enableSorting: false,
        cell: ({ row }) => {
          const words = scopeInWords(
            row.original.scope,
            row.original.advertiser_ids.map((id) => ({ name: advertiserNames.get(id) ?? id })),
          );
          return <span>{words.charAt(0).toUpperCase() + words.slice(1)}</span>;
        },
      },
      {
        accessorKey: 'status',
        header: 'Status',
        cell: ({ row }) => <Badge tone={STATUS_TONES[row.original.status]}>{row.original.status}</Badge>,
      },
      dateTimeColumn<VoiceConsent>('expires_at', 'Ends', 'No end date'),
      {
        id: 'decided',
        header: 'Decided',
        enableSorting: false,
        cell: ({ row }) => <Decided consent={row.original} />,
      },
      actionsColumn((consent) => (canAdminister ? <RevokeConsent consent={consent} /> : null)),
    ],
    [advertiserNames, canAdminister],
  );

  const name = podcast.data?.name ?? 'this podcast';
  return (
    <>
      <IntentLink
        href={networkPath(networkId, 'podcasts')}
        className="mb-3 inline-flex items-center gap-1 rounded text-sm text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        <ArrowLeft className="size-4" aria-hidden /> All podcasts
      </IntentLink>
      <PageHeader
        title={podcast.data ? `Voice consent · ${podcast.data.name}` : 'Voice consent'}
        description="Ads are read in the host’s synthesized voice. The host grants or refuses on a page the request emails them, and can revoke from it later; an administrator can revoke too."
        actions={
          canAdminister && podcast.data ? (
            <Button onClick={() => setRequesting(true)}>
              <Mic2 aria-hidden /> Request consent
            </Button>
          ) : undefined
        }
      />
      {podcast.error ? (
        <ErrorState error={podcast.error} onRetry={() => podcast.refetch()} />
      ) : (
        <DataTable
          label={`Voice consents of ${name}`}
          columns={columns}
          {...pagedTable(list)}
          empty={
            <EmptyState
              icon={<Mic2 className="size-6" />}
              title="No consent asked for yet"
              description={`Ask ${podcast.data?.host_name ?? 'the host'} for consent to ads in their voice.`}
            />
          }
        />
      )}
      {podcast.data && (
        <RequestConsentDialog open={requesting} onOpenChange={setRequesting} podcast={podcast.data} advertisers={advertisers.data?.items ?? []} />
      )}
    </>
  );
}

function Decided({ consent }: { consent: VoiceConsent }) {
  const [label, at] =
    consent.status === 'revoked'
      ? [consent.revoked_by === 'host' ? 'Revoked by the host' : 'Revoked by an administrator', consent.revoked_at]
      : consent.granted_at
        ? ['Granted', consent.granted_at]
        : consent.refused_at
          ? ['Refused', consent.refused_at]
          : [null, null];
  if (!label) return <span className="text-slate-600">Link works until {formatDateTime(consent.link_expires_at)}</span>;
  return (
    <span>
      {label} {formatDateTime(at)}
      {consent.statement && <span className="block text-xs text-slate-600">Statement v{consent.statement.version}</span>}
    </span>
  );
}

function RevokeConsent({ consent }: { consent: VoiceConsent }) {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const queryClient = useQueryClient();
  const revoke = useMutation(
    trpc.voiceConsents.revoke.mutationOptions({ onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.voiceConsents.pathKey() }) }),
  );
  if (consent.status !== 'pending' && consent.status !== 'granted') return null;
  const withdrawing = consent.status === 'pending';
  return (
    <ConfirmDialog
      trigger={
        <Button variant="ghost" size="sm" aria-label={`Revoke the consent of ${consent.host_name}`} onClick={() => revoke.reset()}>
          Revoke
        </Button>
      }
      title={withdrawing ? `Withdraw the request to ${consent.host_name}?` : `Revoke ${consent.host_name}’s consent?`}
      description={
        withdrawing
          ? 'The link in the email stops working for a decision. You can ask again later.'
          : 'No new ads will be made in the host’s voice under this consent. The host is not emailed.'
      }
      confirmLabel={withdrawing ? 'Withdraw request' : 'Revoke consent'}
      error={revoke.error ? problemSentence(revoke.error, 'revoke the consent') : undefined}
      onConfirm={async () => {
        await revoke.mutateAsync({ networkId, consentId: consent.id });
        toast.success(withdrawing ? 'Request withdrawn.' : 'Consent revoked.');
      }}
    />
  );
}

function RequestConsentDialog({
  open,
  onOpenChange,
  podcast,
  advertisers,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  podcast: { id: string; name: string; host_name: string };
  advertisers: Array<{ id: string; name: string }>;
}) {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const queryClient = useQueryClient();
  const request = useMutation(
    trpc.voiceConsents.request.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.voiceConsents.pathKey() }) }),
  );
  const defaults: z.input<typeof requestForm> = {
    host_name: podcast.host_name,
    host_email: '',
    scope: 'all_campaigns',
    advertiser_ids: [],
    expires_at: '',
  };
  const { form, close, dialogProps } = useFormResetOnClose(requestForm, defaults, { open, onOpenChange });
  const scope = form.watch('scope');
  return (
    <FormDialog
      {...dialogProps}
      title="Request voice consent"
      description={`${podcast.name}’s host is emailed a link to a page with the consent statement, where they grant or refuse. The link works for 30 days.`}
      submitLabel="Send request"
      onSubmit={async (values) => {
        await request.mutateAsync({
          ...values,
          advertiser_ids: values.scope === 'advertisers' ? values.advertiser_ids : undefined,
          networkId,
          podcastId: podcast.id,
        });
        toast.success(`Consent request emailed to ${values.host_email}.`);
        close();
      }}
    >
      <FormField form={form} name="host_name" label="Host name">
        {(field) => <Input autoComplete="off" {...field} />}
      </FormField>
      <FormField form={form} name="host_email" label="Host email" description="The link goes only to this address.">
        {(field) => <Input type="email" autoComplete="off" {...field} />}
      </FormField>
      <FormField form={form} name="scope" label="Covers">
        {(field) => <Select options={SCOPES} {...field} />}
      </FormField>
      {scope === 'advertisers' && (
        <Controller
          control={form.control}
          name="advertiser_ids"
          render={({ field, fieldState }) => (
            <FieldShell id="consent-advertisers" label="Advertisers" error={fieldState.error?.message}>
              <div
                id="consent-advertisers"
                role="group"
                aria-label="Advertisers"
                className="max-h-48 space-y-2 overflow-y-auto rounded-md border border-slate-200 px-3 py-2"
              >
                {advertisers.length === 0 && <p className="text-sm text-slate-600">This network has no advertisers yet.</p>}
                {advertisers.map((advertiser) => {
                  const chosen = (field.value ?? []).includes(advertiser.id);
                  return (
                    <label key={advertiser.id} className="flex items-center gap-2 text-sm text-slate-800">
                      <Checkbox
                        checked={chosen}
                        onCheckedChange={(checked) =>
                          field.onChange(
                            checked === true ? [...(field.value ?? []), advertiser.id] : (field.value ?? []).filter((id) => id !== advertiser.id),
                          )
                        }
                      />
                      {advertiser.name}
                    </label>
                  );
                })}
              </div>
            </FieldShell>
          )}
        />
      )}
      <FormField form={form} name="expires_at" label="Ends" description="Optional. Without an end, the consent lasts until it is revoked.">
        {(field) => <Input type="datetime-local" {...field} />}
      </FormField>
    </FormDialog>
  );
}
