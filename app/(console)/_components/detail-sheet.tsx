'use client';

import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Dialog, DialogContent } from '@/app/(console)/_components/ui/dialog';
import { LoadingBlock } from '@/app/(console)/_components/ui/skeleton';
import { ErrorState } from '@/app/(console)/_components/ui/states';

/**
 * One object in a side sheet over its list (a delivery, an offer, a creative, a key, a member),
 * open while `objectId` is set (its id in the URL: useOpenObject), under its id, and closed by
 * Escape, the close button or a click outside:
 *   <DetailSheet title="Offer" objectId={opened.id} onClose={opened.close}>{(id) => <OfferDetail offerId={id} />}</DetailSheet>
 */
export function DetailSheet({
  objectId,
  onClose,
  title,
  children,
}: {
  objectId: string | null;
  onClose: () => void;
  title: string;
  children: (objectId: string) => ReactNode;
}) {
  return (
    <Dialog open={objectId !== null} onOpenChange={(next) => !next && onClose()}>
      {objectId !== null && (
        <DialogContent
          title={title}
          description={<span className="font-mono text-xs break-all">{objectId}</span>}
          className="top-0 right-0 left-auto h-dvh max-h-dvh w-full max-w-xl translate-x-0 translate-y-0 rounded-none border-y-0 border-r-0 sm:w-[min(36rem,100vw)]"
        >
          {children(objectId)}
        </DialogContent>
      )}
    </Dialog>
  );
}

/** A sheet's query: its error with a retry, a skeleton while it loads, then `children(data)`. */
export function Loaded<T, E>({ query, lines = 5, children }: { query: UseQueryResult<T, E>; lines?: number; children: (data: T) => ReactNode }) {
  if (query.error) return <ErrorState error={query.error} onRetry={() => query.refetch()} />;
  if (query.data === undefined) return <LoadingBlock lines={lines} />;
  return children(query.data);
}

/** The object's facts, two to a row: `<DetailList><DetailItem label="Status">…</DetailItem></DetailList>`. */
export function DetailList({ children }: { children: ReactNode }) {
  return <dl className="grid grid-cols-2 gap-3 text-sm">{children}</dl>;
}

export function DetailItem({ label, children, wide }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={wide ? 'col-span-2' : undefined}>
      <dt className="text-xs font-medium text-slate-600">{label}</dt>
      <dd className="mt-0.5 break-words text-slate-900">{children}</dd>
    </div>
  );
}
