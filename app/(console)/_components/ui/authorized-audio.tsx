'use client';

import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { audioErrorSentence, AudioFetchError, fetchAuthorizedBlob } from '@/app/(console)/_lib/ads';
import { cn } from '@/app/(console)/_lib/cn';
import { Button } from './button';
import { Skeleton } from './skeleton';

/**
 * An <audio controls> player for audio the API serves only with the bearer
 * key. An <audio src> cannot send an Authorization header, and the key must
 * never go into a URL, so the audio is fetched with the key and played from a
 * Blob URL (revoked when the player goes away).
 *
 *   <AuthorizedAudio path={creativeAudioPath(networkId, creative.id)} label="Creative for Night Owls" />
 */
export function AuthorizedAudio({ path, label, className }: { path: string; label: string; className?: string }) {
  const audio = useQuery({
    queryKey: ['authorized-audio', path],
    queryFn: ({ signal }) => fetchAuthorizedBlob(path, { signal }),
    staleTime: Infinity,
    gcTime: 5 * 60_000,
    retry: (failures, error) => !(error instanceof AudioFetchError && error.status >= 400 && error.status < 500) && failures < 2,
  });
  const src = useBlobUrl(audio.data);

  if (audio.error) {
    return (
      <div role="alert" className={cn('flex flex-wrap items-center gap-2 text-sm text-red-800', className)}>
        <span>{audioErrorSentence(audio.error)}</span>
        <Button variant="secondary" size="sm" onClick={() => audio.refetch()}>
          Retry
        </Button>
      </div>
    );
  }
  if (!src) {
    return (
      <div className={className}>
        <Skeleton className="h-10 w-64 max-w-full" />
        <span className="sr-only" role="status">
          Loading audio…
        </span>
      </div>
    );
  }
  return <audio controls preload="metadata" src={src} aria-label={label} className={cn('h-10 w-64 max-w-full', className)} />;
}

/** An object URL for a Blob, revoked when the Blob changes or the component unmounts. */
export function useBlobUrl(blob: Blob | undefined | null): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!blob) {
      setUrl(undefined);
      return;
    }
    const next = URL.createObjectURL(blob);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [blob]);
  return url;
}
