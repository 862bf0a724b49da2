'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Loader2, RotateCw } from 'lucide-react';
import type { z } from 'zod';
import type { creativeSchema } from '@/server/routers/creatives/creative.types';
import { AuthorizedAudio } from '@/app/(console)/_components/ui/authorized-audio';
import { Button } from '@/app/(console)/_components/ui/button';
import { IntentLink } from '@/app/(console)/_components/ui/intent-link';
import { toast } from '@/app/(console)/_components/ui/toaster';
import { creativeAudioPath } from '@/app/(console)/_lib/ads';
import { networkPath, useNetworkId } from '@/app/(console)/_lib/network';
import { problemSentence } from '@/app/(console)/_lib/problem';
import { useTRPC } from '@/app/(console)/_lib/trpc';

export type Creative = z.infer<typeof creativeSchema>;

/** The path of a podcast's voice consents (the administrators' page of podcasts/[podcastId]/voice-consent). */
export const voiceConsentPath = (networkId: string, podcastId: string) =>
  networkPath(networkId, `podcasts/${encodeURIComponent(podcastId)}/voice-consent`);

/**
 * A creative's audio as its state allows: Play and Download once approved (and, for administrators,
 * while it waits for approval: they review on the host's behalf), progress while generating, what it
 * waits for while awaiting consent, the reason and Retry once failed.
 */
export function CreativeAudio({ creative, canAdminister, label }: { creative: Creative; canAdminister: boolean; label: string }) {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const queryClient = useQueryClient();
  const retry = useMutation(
    trpc.creatives.retry.mutationOptions({
      onSuccess: () => toast.success('Generating the creative again.'),
      onError: (error) => toast.error(problemSentence(error, 'retry the creative')),
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.creatives.pathKey() }),
    }),
  );
  const player = (
    <AuthorizedAudio
      path={creativeAudioPath(networkId, creative.id)}
      label={`Audio: ${label}`}
      fileName={`creative-${creative.id}-r${creative.revision}`}
    />
  );
  switch (creative.status) {
    case 'approved':
      return player;
    case 'pending_approval':
      return canAdminister ? player : <p className="max-w-72 text-sm text-slate-600">Waiting for the host’s approval.</p>;
    case 'generating':
      return (
        <span className="inline-flex items-center gap-2 text-sm text-slate-600">
          <Loader2 className="size-4 animate-spin" aria-hidden /> Generating{creative.attempts > 1 ? ` (attempt ${creative.attempts})` : ''}…
        </span>
      );
    case 'awaiting_consent':
      return (
        <p className="max-w-72 text-sm text-slate-600">
          Waits for the host’s voice consent.{' '}
          <IntentLink href={voiceConsentPath(networkId, creative.podcast_id)} className="text-indigo-700 underline underline-offset-4">
            Voice consent
          </IntentLink>
        </p>
      );
    case 'changes_requested':
      return <p className="max-w-72 text-sm text-slate-600">Changes requested: a newer revision replaces it.</p>;
    case 'failed':
      return (
        <div className="max-w-72 space-y-2">
          <p className="text-sm text-red-800">{creative.failure_reason ?? 'The voice could not be generated.'}</p>
          {canAdminister && (
            <Button
              variant="secondary"
              size="sm"
              loading={retry.isPending}
              onClick={() => retry.mutate({ networkId, creativeId: creative.id })}
              aria-label={`Retry ${label}`}
            >
              <RotateCw aria-hidden /> Retry
            </Button>
          )}
        </div>
      );
  }
}
