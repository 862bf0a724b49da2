'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { z } from 'zod';
import type { offerSchema } from '@/server/routers/offers/offer.types';
import { rejectOfferInput } from '@/server/routers/offers/reject-offer.types';
import { FormDialog } from '@/app/(console)/_components/form-dialog';
import { Button } from '@/app/(console)/_components/ui/button';
import { ConfirmDialog } from '@/app/(console)/_components/ui/confirm-dialog';
import { FormField, useZodForm } from '@/app/(console)/_components/ui/form';
import { Textarea } from '@/app/(console)/_components/ui/input';
import { IntentLink } from '@/app/(console)/_components/ui/intent-link';
import { toast } from '@/app/(console)/_components/ui/toaster';
import { offerPrice } from '@/app/(console)/_lib/ads';
import { networkPath, useNetworkId } from '@/app/(console)/_lib/network';
import { problemSentence } from '@/app/(console)/_lib/problem';
import { useTRPC } from '@/app/(console)/_lib/trpc';

export type Offer = z.infer<typeof offerSchema>;

const rejectSchema = rejectOfferInput.omit({ networkId: true, offerId: true });

/** Whether an offer can still be accepted or rejected: its row's buttons, and what bulk actions select. */
export function decidable(offer: Offer): boolean {
  return offer.status === 'open';
}

/** An offer's buttons, in its row and in its sheet: Accept and Reject while open, then "View creative". */
export function OfferActions({
  offer,
  canAdminister,
  campaignName,
  podcastName,
}: {
  offer: Offer;
  canAdminister: boolean;
  campaignName?: string;
  podcastName?: string;
}) {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const queryClient = useQueryClient();
  const [rejecting, setRejecting] = useState(false);
  const accept = useMutation(
    trpc.offers.accept.mutationOptions({
      onSettled: () =>
        Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.offers.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.creatives.pathKey() }),
        ]),
    }),
  );
  const what = `${campaignName ?? 'this campaign'} on ${podcastName ?? 'this podcast'}`;

  if (offer.status === 'accepted' && offer.creative_id) {
    return (
      <div className="flex justify-end">
        <Button asChild variant="link" size="sm">
          <IntentLink href={`${networkPath(networkId, 'creatives')}?offer=${encodeURIComponent(offer.id)}`}>
            View creative<span className="sr-only"> for {what}</span>
          </IntentLink>
        </Button>
      </div>
    );
  }
  if (!decidable(offer) || !canAdminister) return null;
  return (
    <div className="flex justify-end gap-1 whitespace-nowrap">
      <ConfirmDialog
        trigger={
          <Button size="sm" aria-label={`Accept offer of ${what}`} onClick={() => accept.reset()}>
            Accept
          </Button>
        }
        title="Accept this offer?"
        description={`${campaignName ?? 'The campaign'} will be read on ${podcastName ?? 'the podcast'} for ${offerPrice(offer)}. Accepting starts generating the creative in the host’s voice; it cannot be undone.`}
        confirmLabel="Accept offer"
        destructive={false}
        error={accept.error ? problemSentence(accept.error, 'accept the offer') : undefined}
        onConfirm={async () => {
          try {
            await accept.mutateAsync({ networkId, offerId: offer.id });
          } catch (error) {
            // The refreshed list may no longer offer this row (decided elsewhere), which closes the
            // dialog with its sentence: say it where it stays.
            toast.error(problemSentence(error, 'accept the offer'));
            throw error;
          }
          toast.success('Offer accepted: the creative is being generated.');
        }}
      />
      <Button variant="secondary" size="sm" aria-label={`Reject offer of ${what}`} onClick={() => setRejecting(true)}>
        Reject
      </Button>
      {rejecting && <RejectOfferDialog offer={offer} what={what} onClose={() => setRejecting(false)} />}
    </div>
  );
}

function RejectOfferDialog({ offer, what, onClose }: { offer: Offer; what: string; onClose: () => void }) {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const queryClient = useQueryClient();
  const reject = useMutation(
    trpc.offers.reject.mutationOptions({ onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.offers.pathKey() }) }),
  );
  const form = useZodForm(rejectSchema, { defaultValues: { reason: '' } });
  return (
    <FormDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Reject this offer?"
      description={`The offer of ${what} is closed for good; the reason is kept with it and sent in the offer.rejected event.`}
      form={form}
      submitLabel="Reject offer"
      submitVariant="danger"
      onSubmit={async (values) => {
        await reject.mutateAsync({ ...values, networkId, offerId: offer.id });
        toast.success('Offer rejected.');
        onClose();
      }}
    >
      <FormField form={form} name="reason" label="Reason" description="Optional, up to 500 characters.">
        {(field) => <Textarea rows={3} {...field} />}
      </FormField>
    </FormDialog>
  );
}

/**
 * The bulk bar's buttons over the selected open offers: "Accept" and "Reject" (one optional reason
 * for all), each confirmed with the count. The page runs the calls (useBulkRun) and shows each result.
 */
export function BulkOfferActions({
  count,
  onAccept,
  onReject,
}: {
  count: number;
  onAccept: () => void;
  onReject: (reason: string | undefined) => void;
}) {
  const [rejecting, setRejecting] = useState(false);
  const form = useZodForm(rejectSchema, { defaultValues: { reason: '' } });
  const offers = `${count} ${count === 1 ? 'offer' : 'offers'}`;
  return (
    <>
      <ConfirmDialog
        trigger={<Button size="sm">Accept</Button>}
        title={`Accept ${offers}?`}
        description="Each starts generating its creative in the host’s voice, at the offer’s price. This cannot be undone."
        confirmLabel={`Accept ${offers}`}
        destructive={false}
        onConfirm={onAccept}
      />
      <FormDialog
        open={rejecting}
        onOpenChange={setRejecting}
        resetOnDismiss
        trigger={
          <Button variant="secondary" size="sm">
            Reject
          </Button>
        }
        title={`Reject ${offers}?`}
        description="Each offer is closed for good; the reason, if you give one, is kept with every one of them and sent in their offer.rejected events."
        form={form}
        submitLabel={`Reject ${offers}`}
        submitVariant="danger"
        onSubmit={(values) => {
          onReject(values.reason || undefined);
          setRejecting(false);
          form.reset();
        }}
      >
        <FormField form={form} name="reason" label="Reason (optional, for all of them)" description="Up to 500 characters.">
          {(field) => <Textarea rows={3} {...field} />}
        </FormField>
      </FormDialog>
    </>
  );
}
