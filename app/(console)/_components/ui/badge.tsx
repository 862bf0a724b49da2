import type { ComponentProps } from 'react';
import { cn } from '@/app/(console)/_lib/cn';

export type BadgeTone = 'neutral' | 'success' | 'warning' | 'danger' | 'info' | 'accent';

const TONES: Record<BadgeTone, string> = {
  neutral: 'bg-slate-100 text-slate-700 ring-slate-300',
  success: 'bg-emerald-50 text-emerald-800 ring-emerald-300',
  warning: 'bg-amber-50 text-amber-800 ring-amber-300',
  danger: 'bg-red-50 text-red-800 ring-red-300',
  info: 'bg-sky-50 text-sky-800 ring-sky-300',
  accent: 'bg-indigo-50 text-indigo-800 ring-indigo-300',
};

/** Every status of the API, with the tone it is shown in. Unknown statuses are neutral. */
const STATUS_TONES: Record<string, BadgeTone> = {
  active: 'success',
  accepted: 'success',
  approved: 'success',
  granted: 'success',
  succeeded: 'success',
  delivered: 'success',
  completed: 'neutral',
  pending: 'warning',
  open: 'info',
  generating: 'info',
  awaiting_consent: 'warning',
  pending_approval: 'accent',
  changes_requested: 'neutral',
  draft: 'neutral',
  paused: 'warning',
  disabled: 'warning',
  retrying: 'warning',
  expired: 'neutral',
  archived: 'neutral',
  removed: 'neutral',
  rejected: 'danger',
  refused: 'danger',
  revoked: 'danger',
  failed: 'danger',
  scheduled: 'info',
  live: 'success',
  ended: 'neutral',
  opted_in: 'success',
  opted_out: 'neutral',
  administrator: 'accent',
  read_only: 'neutral',
  super_user: 'accent',
};

export function statusTone(status: string): BadgeTone {
  return STATUS_TONES[status] ?? 'neutral';
}

export function Badge({ tone = 'neutral', className, ...props }: ComponentProps<'span'> & { tone?: BadgeTone }) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset',
        TONES[tone],
        className,
      )}
      {...props}
    />
  );
}

/** A status in its colour, with underscores shown as spaces: <StatusBadge status={offer.status} />. */
export function StatusBadge({ status, className }: { status: string; className?: string }) {
  return (
    <Badge tone={statusTone(status)} className={className}>
      {status.replaceAll('_', ' ')}
    </Badge>
  );
}
