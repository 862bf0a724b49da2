'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Check, Copy, Lock } from 'lucide-react';
import { useId, useState } from 'react';
import { z } from 'zod';
import { keyLifetimeField } from '@/server/routers/networks/network.types';
import { updateNetworkInput } from '@/server/routers/networks/update-network.types';
import { Button } from '@/app/(console)/_components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/app/(console)/_components/ui/card';
import { DateTime } from '@/app/(console)/_components/ui/date-time';
import { Form, FormError, FormField, useZodForm } from '@/app/(console)/_components/ui/form';
import { Input } from '@/app/(console)/_components/ui/input';
import { LoadingBlock } from '@/app/(console)/_components/ui/skeleton';
import { ErrorState, PageHeader } from '@/app/(console)/_components/ui/states';
import { LIVE_MODE_MEANING, ModeName, TEST_MODE_MEANING } from '@/app/(console)/_components/test-mode';
import { toast } from '@/app/(console)/_components/ui/toaster';
import { useCanAdminister, useNetworkId, useNetworkRole } from '@/app/(console)/_lib/network';
import { problemOf } from '@/app/(console)/_lib/problem';
import { useTRPC, type RouterOutputs } from '@/app/(console)/_lib/trpc';
import { daysLabel } from '@/app/(console)/console/n/[networkId]/api-keys/_components/key-lifetime';

type Network = RouterOutputs['networks']['get'];

const LIFETIME_HELP =
  'A key minted for this network must end within this many days; one minted without an end gets the longest allowed, and a rotated key keeps its end, cut to the limit. Lowering it leaves the ends of existing keys as they are.';

const CONFLICT_SENTENCE = 'Someone changed these settings meanwhile; reloaded — check and save again.';

/** What a limit is suggested as when "No limit" is left (a live network's default). */
const SUGGESTED_DAYS = 365;

/** The day count as the API checks it, only when a limit is chosen (an empty box is NaN from valueAsNumber). */
const days = keyLifetimeField.unwrap();

const settingsForm = z
  .object({
    name: updateNetworkInput.shape.name.unwrap(),
    limit: z.enum(['none', 'days']),
    max_key_lifetime_days: z.unknown(),
  })
  .superRefine((values, ctx) => {
    if (values.limit !== 'days') return;
    const value = values.max_key_lifetime_days;
    if (typeof value !== 'number' || Number.isNaN(value)) {
      ctx.addIssue({ code: 'custom', path: ['max_key_lifetime_days'], message: 'Enter a number of days, or choose “No limit”.' });
      return;
    }
    const checked = days.safeParse(value);
    if (!checked.success)
      ctx.addIssue({ code: 'custom', path: ['max_key_lifetime_days'], message: checked.error.issues[0]?.message ?? 'Not a valid number of days.' });
  });

const defaultsOf = (n: Network) => ({
  name: n.name,
  limit: n.max_key_lifetime_days === null ? ('none' as const) : ('days' as const),
  max_key_lifetime_days: n.max_key_lifetime_days ?? SUGGESTED_DAYS,
});

/**
 * /console/n/[networkId]/settings: the network's name and id, and its settings (name, longest API
 * key lifetime) — `networks.get`, and `networks.update` for administrators, which sends only what
 * changed with the version the form was filled from (a stale one is a 409: the form reloads).
 * Read_only members see the values.
 */
export function NetworkSettings() {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const role = useNetworkRole(networkId);
  const canAdminister = useCanAdminister(networkId);
  const network = useQuery(trpc.networks.get.queryOptions({ networkId }));

  return (
    <>
      <PageHeader title="Network settings" description="This network’s name, its mode, and the rules its API keys follow." />
      {network.error ? (
        <ErrorState error={network.error} onRetry={() => network.refetch()} />
      ) : !network.data || !role ? (
        <LoadingBlock label="Loading the network’s settings…" />
      ) : (
        <div className="max-w-3xl space-y-6">
          <NetworkIdentity network={network.data} />
          {canAdminister ? <SettingsForm network={network.data} /> : <ReadOnlySettings network={network.data} />}
        </div>
      )}
    </>
  );
}

function NetworkIdentity({ network: n }: { network: Network }) {
  return (
    <Card aria-labelledby="network-heading">
      <CardContent>
        <h2 id="network-heading" className="sr-only">
          Name, id and mode
        </h2>
        {/* A pair per line beside each other from sm up; on a phone each value right under its label. */}
        <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[max-content_1fr]">
          <div className="space-y-0.5 sm:contents">
            <dt className="font-medium text-slate-600">Name</dt>
            <dd className="min-w-0 font-medium break-words text-slate-900" data-testid="network-name">
              {n.name}
            </dd>
          </div>
          <div className="space-y-0.5 sm:contents">
            <dt className="font-medium text-slate-600 sm:self-center">Id</dt>
            <dd className="flex min-w-0 items-center gap-2">
              <span className="min-w-0 truncate font-mono text-xs text-slate-900" title={n.id}>
                {n.id}
              </span>
              <CopyButton value={n.id} label="Copy the network’s id" />
            </dd>
          </div>
          <div className="space-y-0.5 sm:contents">
            <dt className="font-medium text-slate-600">Mode</dt>
            <dd className="min-w-0 space-y-1" data-testid="network-mode">
              <ModeName mode={n.mode} />
              <p className="max-w-prose text-xs text-slate-600">
                {n.mode === 'test' ? `A sandbox. ${TEST_MODE_MEANING}` : LIVE_MODE_MEANING} Fixed when the network was created.
              </p>
            </dd>
          </div>
          <div className="space-y-0.5 sm:contents">
            <dt className="font-medium text-slate-600">Created</dt>
            <dd className="min-w-0 text-slate-900">
              <DateTime value={n.created_at} />
            </dd>
          </div>
          <div className="space-y-0.5 sm:contents">
            <dt className="font-medium text-slate-600">Last changed</dt>
            <dd className="min-w-0 text-slate-900">
              <DateTime value={n.updated_at} />
            </dd>
          </div>
        </dl>
      </CardContent>
    </Card>
  );
}

function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      size="sm"
      variant="ghost"
      aria-label={label}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value);
          setCopied(true);
          setTimeout(() => setCopied(false), 2000);
        } catch {
          toast.error('The browser refused the clipboard; select the id instead.');
        }
      }}
    >
      {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
      <span aria-live="polite">{copied ? 'Copied' : 'Copy'}</span>
    </Button>
  );
}

function lifetimeText(limit: number | null): string {
  return limit === null ? 'No limit' : `At most ${daysLabel(limit)}`;
}

function ReadOnlySettings({ network: n }: { network: Network }) {
  return (
    <Card aria-labelledby="settings-heading">
      <CardHeader>
        <div>
          <CardTitle id="settings-heading">Settings</CardTitle>
          <CardDescription className="mt-1 flex items-center gap-1.5">
            <Lock className="size-3.5 shrink-0" aria-hidden /> Only the network’s administrators can change these.
          </CardDescription>
        </div>
      </CardHeader>
      <CardContent>
        <dl className="space-y-4 text-sm">
          <div>
            <dt className="font-medium text-slate-600">Name</dt>
            <dd className="mt-1 break-words text-slate-900">{n.name}</dd>
          </div>
          <div>
            <dt className="font-medium text-slate-600">Longest API key lifetime</dt>
            <dd className="mt-1 space-y-1">
              <p className="text-slate-900" data-testid="key-lifetime">
                {lifetimeText(n.max_key_lifetime_days)}
              </p>
              <p className="max-w-prose text-xs text-slate-600">{LIFETIME_HELP}</p>
            </dd>
          </div>
        </dl>
      </CardContent>
    </Card>
  );
}

function SettingsForm({ network }: { network: Network }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const networkId = network.id;
  // What the form was filled from: its version is sent with the change, so a change made
  // meanwhile (even one this tab's query has since read) is a 409, not overwritten.
  const [base, setBase] = useState(network);
  const [conflict, setConflict] = useState(false);
  const update = useMutation(trpc.networks.update.mutationOptions());
  const form = useZodForm(settingsForm, { defaultValues: defaultsOf(base) });
  const limited = form.watch('limit') === 'days';
  const ids = { legend: useId(), help: useId(), days: useId(), error: useId() };
  const daysError = form.formState.errors.max_key_lifetime_days?.message;

  function refill(fresh: Network) {
    setBase(fresh);
    form.reset(defaultsOf(fresh));
    queryClient.setQueryData(trpc.networks.get.queryKey({ networkId }), fresh);
  }

  return (
    <Card aria-labelledby="settings-heading">
      <CardHeader>
        <CardTitle id="settings-heading">Settings</CardTitle>
      </CardHeader>
      <CardContent>
        <Form
          form={form}
          aria-labelledby="settings-heading"
          onSubmit={async (values) => {
            setConflict(false);
            const lifetime = values.limit === 'days' ? (values.max_key_lifetime_days as number) : null;
            const changes = {
              ...(values.name !== base.name && { name: values.name }),
              ...(lifetime !== base.max_key_lifetime_days && { max_key_lifetime_days: lifetime }),
            };
            if (Object.keys(changes).length === 0) {
              toast.info('Nothing to save: the settings are as they were.');
              return;
            }
            let saved: Network;
            try {
              saved = await update.mutateAsync({ networkId, ...changes, version: base.version });
            } catch (error) {
              if (problemOf(error).status === 409) {
                setConflict(true);
                refill(await queryClient.fetchQuery({ ...trpc.networks.get.queryOptions({ networkId }), staleTime: 0 }));
                await queryClient.invalidateQueries({ queryKey: trpc.networks.list.pathKey() });
                return;
              }
              throw error;
            }
            refill(saved);
            // The switcher, the header and the palette read networks.list; the key dialogs networks.get.
            await queryClient.invalidateQueries({ queryKey: trpc.networks.pathKey() });
            toast.success('Network settings saved.');
          }}
        >
          <FormField form={form} name="name" label="Name" description="How the console and the API name this network." className="max-w-md">
            {(field) => <Input autoComplete="off" {...field} />}
          </FormField>

          <fieldset aria-describedby={ids.help} className="space-y-2">
            <legend id={ids.legend} className="text-sm font-medium text-slate-800">
              Longest API key lifetime
            </legend>
            <p id={ids.help} className="max-w-prose text-xs text-slate-600">
              {LIFETIME_HELP}
            </p>
            <div className="space-y-2 pt-1">
              <label className="flex w-fit items-center gap-2 text-sm text-slate-900">
                <input type="radio" value="none" className="size-4 accent-indigo-600" {...form.register('limit')} />
                No limit
              </label>
              <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                <label className="flex items-center gap-2 text-sm text-slate-900">
                  <input type="radio" value="days" className="size-4 accent-indigo-600" {...form.register('limit')} />
                  Limit to
                </label>
                {limited && (
                  <>
                    <Input
                      id={ids.days}
                      type="number"
                      inputMode="numeric"
                      min={1}
                      max={3650}
                      step={1}
                      aria-label="Longest lifetime in days"
                      aria-invalid={daysError ? true : undefined}
                      aria-describedby={daysError ? ids.error : undefined}
                      className="w-28"
                      {...form.register('max_key_lifetime_days', { valueAsNumber: true })}
                    />
                    <span className="text-sm text-slate-700" aria-hidden>
                      days
                    </span>
                  </>
                )}
              </div>
            </div>
            {daysError && (
              <p id={ids.error} className="text-xs font-medium text-red-700">
                {daysError}
              </p>
            )}
          </fieldset>

          {conflict && (
            <p role="alert" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
              {CONFLICT_SENTENCE}
            </p>
          )}
          <FormError form={form} />
          <div className="flex justify-end border-t border-slate-100 pt-4">
            <Button type="submit" loading={form.formState.isSubmitting}>
              Save settings
            </Button>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}
