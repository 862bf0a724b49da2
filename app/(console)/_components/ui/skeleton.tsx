import type { ComponentProps } from 'react';
import { cn } from '@/app/(console)/_lib/cn';

export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return <div aria-hidden className={cn('animate-pulse rounded-md bg-slate-200', className)} {...props} />;
}

/** A block of placeholder lines with an accessible "Loading…" status. */
export function LoadingBlock({ lines = 3, label = 'Loading…', className }: { lines?: number; label?: string; className?: string }) {
  return (
    <div role="status" className={cn('space-y-3', className)}>
      <span className="sr-only">{label}</span>
      {Array.from({ length: lines }, (_, i) => (
        <Skeleton key={i} className={cn('h-4', i % 3 === 2 ? 'w-2/3' : 'w-full')} />
      ))}
    </div>
  );
}
