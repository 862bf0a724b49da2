'use client';

import { useIsMutating, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { BellOff } from 'lucide-react';
import { NOTIFICATION_DESCRIPTIONS, NOTIFICATION_KINDS, type NotificationKind } from '@/domain/notifications';
import { Card } from '@/app/(console)/_components/ui/card';
import { Label } from '@/app/(console)/_components/ui/label';
import { LoadingBlock } from '@/app/(console)/_components/ui/skeleton';
import { EmptyState, ErrorState } from '@/app/(console)/_components/ui/states';
import { Switch } from '@/app/(console)/_components/ui/switch';
import { toast } from '@/app/(console)/_components/ui/toaster';
import { problemSentence, statusOf } from '@/app/(console)/_lib/problem';
import { useTRPC, type RouterOutputs } from '@/app/(console)/_lib/trpc';

type Settings = RouterOutputs['notifications']['settings'];
type Change = Partial<Settings>;

/** Each kind's name in the list; its description (domain/notifications.ts) says who gets it and when. */
const LABELS: Record<NotificationKind, string> = {
  webhook_disabled: 'Webhook disabled',
  key_expiring: 'API key expiring',
  creative_failed: 'Creative failed',
  invitation_accepted: 'Invitation accepted',
};

const kindsOf = (change: Change) => Object.keys(change) as NotificationKind[];

/**
 * "Email notifications" on Your account: one switch per kind (`GET /v1/me/notifications`), each
 * saved as it changes (`PATCH /v1/me/notifications` with that kind alone), shown at once and put
 * back with a toast if the API refuses. Only a key that proves who holds it may read them (a
 * session, or a key the person got themselves): the API answers 403 to others, and the section
 * says how to get a session instead.
 */
export function NotificationSettings({ person }: { person: boolean }) {
  return (
    <section aria-labelledby="notifications-heading" className="mt-8">
      <div className="mb-4">
        <h2 id="notifications-heading" className="text-lg font-semibold text-slate-900">
          Email notifications
        </h2>
        <p className="mt-1 max-w-prose text-sm text-slate-600">
          Notices the service emails you, each at most once a day about one thing. Every such email also has a link to turn its kind off.
        </p>
      </div>
      {person ? (
        <Switches />
      ) : (
        <Card>
          <EmptyState
            icon={<BellOff className="size-6" />}
            title="Notification emails are for people"
            description="This tab is signed in with a service account’s key, which gets no email. People choose their notification emails here, signed in with an emailed link or a passkey."
          />
        </Card>
      )}
    </section>
  );
}

function Switches() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const settingsKey = trpc.notifications.settings.queryKey();
  const mutationKey = trpc.notifications.updateSettings.mutationKey();
  const settings = useQuery(trpc.notifications.settings.queryOptions());
  const saving = useIsMutating({ mutationKey }) > 0;
  const merge = (change: Change) => queryClient.setQueryData(settingsKey, (old) => (old ? { ...old, ...change } : old));
  const update = useMutation(
    trpc.notifications.updateSettings.mutationOptions({
      onMutate: async (change) => {
        await queryClient.cancelQueries({ queryKey: settingsKey });
        const before = queryClient.getQueryData(settingsKey);
        merge(change);
        // What to put back if the API refuses: this change's kinds as they were.
        return before ? (Object.fromEntries(kindsOf(change).map((kind) => [kind, before[kind]])) as Change) : undefined;
      },
      onSuccess: (saved, change) => {
        // Only this change's kinds from the answer: a change of another kind may still be on its way.
        merge(Object.fromEntries(kindsOf(change).map((kind) => [kind, saved[kind]])) as Change);
      },
      onError: (error, _change, previous) => {
        if (previous) merge(previous);
        toast.error(problemSentence(error, 'change your notification emails'));
      },
      onSettled: () => {
        // The last change to finish reads them all again (still counted as pending here).
        if (queryClient.isMutating({ mutationKey }) <= 1) void queryClient.invalidateQueries({ queryKey: settingsKey });
      },
    }),
  );

  if (settings.error && statusOf(settings.error) === 403) {
    return (
      <Card>
        <EmptyState
          icon={<BellOff className="size-6" />}
          title="Notification emails are chosen from a signed-in session"
          description="This tab is signed in with an API key that does not prove who holds it (one an administrator made for you, say), so it may not change your notification emails. Sign out, then sign in with a link emailed to you or with a passkey: from that session you can choose them here. Each email’s own link turns its kind off too."
        />
      </Card>
    );
  }
  if (settings.error) return <ErrorState error={settings.error} onRetry={() => settings.refetch()} />;
  if (!settings.data) {
    return (
      <Card className="px-5 py-4">
        <LoadingBlock label="Loading your notification settings…" lines={4} />
      </Card>
    );
  }

  const data = settings.data;
  return (
    <Card>
      <ul className="divide-y divide-slate-100">
        {NOTIFICATION_KINDS.map((kind) => (
          <li key={kind} className="flex items-start justify-between gap-4 px-5 py-4">
            <div className="min-w-0">
              <Label htmlFor={`notify-${kind}`} className="cursor-pointer">
                {LABELS[kind]}
              </Label>
              <p id={`notify-${kind}-description`} className="mt-0.5 max-w-prose text-sm text-slate-600">
                {NOTIFICATION_DESCRIPTIONS[kind]}
              </p>
            </div>
            <Switch
              id={`notify-${kind}`}
              className="mt-0.5"
              checked={data[kind]}
              aria-describedby={`notify-${kind}-description`}
              onCheckedChange={(on) => update.mutate({ [kind]: on })}
            />
          </li>
        ))}
      </ul>
      <p role="status" className="border-t border-slate-100 px-5 py-2.5 text-xs text-slate-600">
        {saving ? 'Saving…' : update.isSuccess ? 'Saved. Changes apply to the next email.' : 'Each change is saved at once.'}
      </p>
    </Card>
  );
}
