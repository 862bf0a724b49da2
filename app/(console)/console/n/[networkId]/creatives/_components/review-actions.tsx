'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Check, MessageSquareText } from 'lucide-react';
import { useState } from 'react';
import { CampaignLines } from '@/app/(console)/_components/campaign-lines';
import { FormDialog, useFormResetOnClose } from '@/app/(console)/_components/form-dialog';
import { Button } from '@/app/(console)/_components/ui/button';
import { ConfirmDialog } from '@/app/(console)/_components/ui/confirm-dialog';
import { FormField } from '@/app/(console)/_components/ui/form';
import { Textarea } from '@/app/(console)/_components/ui/input';
import { LoadingBlock } from '@/app/(console)/_components/ui/skeleton';
import { ErrorState } from '@/app/(console)/_components/ui/states';
import { toast } from '@/app/(console)/_components/ui/toaster';
import { useNetworkId } from '@/app/(console)/_lib/network';
import { requestCreativeChangesFields } from '@/server/routers/creatives/request-creative-changes.types';
import { changedScript, placeScriptRefusal } from '@/app/(console)/_lib/creative-review';
import { problemSentence } from '@/app/(console)/_lib/problem';
import { useTRPC } from '@/app/(console)/_lib/trpc';
import type { Creative } from './creative-audio';

/** Refreshes every creative the console has read (the lists, the sheet, the queue, the revisions). */
function useCreativesRefresh() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.creatives.pathKey() });
}

/**
 * Approve a revision on the host's behalf (administrators): recorded as approved by an
 * administrator; its audio is then offered for delivery.
 */
export function ApproveCreative({ creative, label, size = 'sm' }: { creative: Creative; label: string; size?: 'sm' | 'md' }) {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const refresh = useCreativesRefresh();
  const approve = useMutation(trpc.creatives.approve.mutationOptions({ onSettled: refresh }));
  return (
    <ConfirmDialog
      trigger={
        <Button size={size} aria-label={`Approve ${label}`} onClick={() => approve.reset()}>
          <Check aria-hidden /> Approve
        </Button>
      }
      title={`Approve revision ${creative.revision}?`}
      description="You approve it on the host’s behalf, and it is recorded as such. The audio is then offered for delivery."
      confirmLabel="Approve"
      destructive={false}
      error={approve.error ? problemSentence(approve.error, 'approve the creative') : undefined}
      onConfirm={async () => {
        await approve.mutateAsync({ networkId, creativeId: creative.id });
        toast.success(`Revision ${creative.revision} approved.`);
      }}
    />
  );
}

/** "Request changes" and its dialog (administrators, on the host's behalf). */
export function RequestChanges({ creative, label, size = 'sm' }: { creative: Creative; label: string; size?: 'sm' | 'md' }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" size={size} aria-label={`Request changes to ${label}`} onClick={() => setOpen(true)}>
        <MessageSquareText aria-hidden /> Request changes
      </Button>
      <RequestChangesDialog creative={creative} open={open} onOpenChange={setOpen} />
    </>
  );
}

function RequestChangesDialog({ creative, open, onOpenChange }: { creative: Creative; open: boolean; onOpenChange: (open: boolean) => void }) {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const refresh = useCreativesRefresh();
  const campaign = useQuery(trpc.campaigns.get.queryOptions({ networkId, campaignId: creative.campaign_id }, { enabled: open }));
  const requestChanges = useMutation(trpc.creatives.requestChanges.mutationOptions({ onSettled: refresh }));
  const { form, close, dialogProps } = useFormResetOnClose(
    requestCreativeChangesFields,
    { comment: '', script: creative.script },
    { open, onOpenChange },
  );
  const script = form.watch('script') ?? '';
  return (
    <FormDialog
      {...dialogProps}
      title={`Request changes to revision ${creative.revision}`}
      description={`On the host’s behalf, recorded as such. Revision ${creative.revision + 1} is made and synthesized anew, with the new script if you change it; the host gets a new review link when it is ready.`}
      className="max-w-3xl"
      submitLabel="Request changes"
      onSubmit={async (values) => {
        try {
          const next = await requestChanges.mutateAsync({
            networkId,
            creativeId: creative.id,
            comment: values.comment,
            script: changedScript(values.script, creative.script),
          });
          toast.success(`Changes requested: revision ${next.revision} is ${next.status === 'generating' ? 'being made' : 'waiting for consent'}.`);
          close();
        } catch (error) {
          if (!placeScriptRefusal(error, (message) => form.setError('script', { type: 'server', message }))) throw error;
        }
      }}
    >
      {/* The campaign's lines beside the fields from md up (checked against the script as it is typed), under them on a phone. */}
      <div className="grid gap-4 md:grid-cols-[3fr_2fr]">
        <div className="min-w-0 space-y-4">
          <FormField form={form} name="comment" label="What should change" description="Recorded with the review; the next revision is made from it.">
            {(field) => <Textarea rows={3} {...field} />}
          </FormField>
          <FormField
            form={form}
            name="script"
            label="Script"
            description="Optional: edit it to have the next revision read a new script; leave it as it is to keep this one."
          >
            {(field) => <Textarea rows={6} {...field} />}
          </FormField>
        </div>
        <div className="min-w-0 self-start rounded-md border border-slate-200 px-4 py-3">
          {campaign.error ? (
            <ErrorState error={campaign.error} onRetry={() => campaign.refetch()} title="Could not read the campaign’s lines" />
          ) : campaign.data ? (
            <CampaignLines talkingPoints={campaign.data.talking_points} requiredLines={campaign.data.required_lines} script={script} />
          ) : (
            <LoadingBlock lines={3} />
          )}
        </div>
      </div>
    </FormDialog>
  );
}

/** Approve and Request changes for a revision waiting for approval; nothing otherwise. */
export function ReviewActions({ creative, label, size }: { creative: Creative; label: string; size?: 'sm' | 'md' }) {
  if (creative.status !== 'pending_approval') return null;
  return (
    <div className="flex flex-wrap gap-2">
      <ApproveCreative creative={creative} label={label} size={size} />
      <RequestChanges creative={creative} label={label} size={size} />
    </div>
  );
}
