'use client';

import { AlertTriangle, Inbox, RotateCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '@/app/(console)/_lib/cn';
import { problemOf, problemSentence } from '@/app/(console)/_lib/problem';
import { Button } from './button';

/** An error with the API's `detail` and a retry button: <ErrorState error={query.error} onRetry={() => query.refetch()} />. */
export function ErrorState({ error, onRetry, title, className }: { error: unknown; onRetry?: () => void; title?: string; className?: string }) {
  const problem = problemOf(error);
  return (
    <div role="alert" className={cn('flex flex-col items-center gap-3 rounded-lg border border-red-200 bg-red-50 px-6 py-8 text-center', className)}>
      <AlertTriangle className="size-6 text-red-700" aria-hidden />
      <div>
        <p className="font-medium text-red-900">{title ?? (problem.status ? `${problem.title} (${problem.status})` : problem.title)}</p>
        <p className="mt-1 text-sm text-red-800">{problemSentence(error)}</p>
      </div>
      {onRetry && (
        <Button variant="secondary" size="sm" onClick={onRetry}>
          <RotateCw aria-hidden /> Retry
        </Button>
      )}
    </div>
  );
}

/** Nothing here yet, with an optional call to action. */
export function EmptyState({
  title,
  description,
  action,
  icon,
  className,
}: {
  title: ReactNode;
  description?: ReactNode;
  action?: ReactNode;
  icon?: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn('flex flex-col items-center gap-3 px-6 py-10 text-center', className)}>
      <div className="rounded-full bg-slate-100 p-3 text-slate-500" aria-hidden>
        {icon ?? <Inbox className="size-6" />}
      </div>
      <div>
        <p className="font-medium text-slate-900">{title}</p>
        {description && <p className="mt-1 max-w-prose text-sm text-slate-600">{description}</p>}
      </div>
      {action}
    </div>
  );
}

/** Title row of a page: <PageHeader title="Webhooks" description="…" actions={<Button>…</Button>} />. */
export function PageHeader({ title, description, actions }: { title: ReactNode; description?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
        {description && <p className="mt-1 max-w-prose text-sm text-slate-600">{description}</p>}
      </div>
      {actions && <div className="flex shrink-0 flex-wrap gap-2">{actions}</div>}
    </div>
  );
}
