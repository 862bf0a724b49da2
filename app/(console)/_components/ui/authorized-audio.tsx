'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Download, Play } from 'lucide-react';
import { useEffect, useState } from 'react';
import { audioErrorSentence, AudioFetchError, fetchAuthorizedBlob } from '@/app/(console)/_lib/ads';
import { cn } from '@/app/(console)/_lib/cn';
import { Button } from './button';
import { toast } from './toaster';

/**
 * Audio the API serves only with the bearer key: a Play and a Download button, and nothing fetched
 * until one is pressed (a list of creatives does not download every file on load). An <audio src>
 * cannot send an Authorization header, and the key must never go into a URL, so the audio is
 * fetched with the key and played, or saved, from a Blob URL (revoked when no longer needed).
 * Play and Download share one fetch.
 *
 *   <AuthorizedAudio path={creativeAudioPath(networkId, creative.id)} label="Creative for Night Owls" fileName="creative-crv_01…" />
 */
export function AuthorizedAudio({ path, label, fileName, className }: { path: string; label: string; fileName: string; className?: string }) {
  const queryClient = useQueryClient();
  const [playing, setPlaying] = useState(false);
  const [saving, setSaving] = useState(false);
  const audioQuery = {
    queryKey: ['authorized-audio', path],
    queryFn: ({ signal }: { signal: AbortSignal }) => fetchAuthorizedBlob(path, { signal }),
    staleTime: Infinity,
    gcTime: 5 * 60_000,
  };
  const audio = useQuery({
    ...audioQuery,
    enabled: playing,
    retry: (failures, error) => !(error instanceof AudioFetchError && error.status >= 400 && error.status < 500) && failures < 2,
  });
  const src = useBlobUrl(playing ? audio.data : undefined);

  const download = async () => {
    setSaving(true);
    try {
      saveBlob(await queryClient.fetchQuery(audioQuery), fileName);
    } catch (error) {
      toast.error(audioErrorSentence(error, 'download the audio'));
    } finally {
      setSaving(false);
    }
  };
  const downloadButton = (
    <Button variant="secondary" size="sm" loading={saving} onClick={download} aria-label={`Download ${label}`}>
      <Download aria-hidden /> Download
    </Button>
  );

  if (playing && audio.error) {
    return (
      <div role="alert" className={cn('flex flex-wrap items-center gap-2 text-sm text-red-800', className)}>
        <span>{audioErrorSentence(audio.error)}</span>
        <Button variant="secondary" size="sm" onClick={() => audio.refetch()}>
          Retry
        </Button>
      </div>
    );
  }
  return (
    <div className={cn('flex flex-wrap items-center gap-2', className)}>
      {src ? (
        <audio controls autoPlay preload="metadata" src={src} aria-label={label} className="h-10 w-64 max-w-full" />
      ) : (
        <Button variant="secondary" size="sm" loading={playing} onClick={() => setPlaying(true)} aria-label={`Play ${label}`}>
          <Play aria-hidden /> Play
        </Button>
      )}
      {downloadButton}
    </div>
  );
}

/** File name extensions of the audio types the API serves. */
const EXTENSIONS: Record<string, string> = { 'audio/mpeg': 'mp3', 'audio/wav': 'wav', 'audio/x-wav': 'wav', 'audio/ogg': 'ogg' };

/** Saves `blob` as `<fileName>.<extension of its type>` through a temporary link. */
function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `${fileName}.${EXTENSIONS[blob.type.split(';')[0]!.trim()] ?? 'audio'}`;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the URL by now; revoking it at once can cancel the download in some.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
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
