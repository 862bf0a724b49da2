'use client';

import { StatusBadge } from '@/app/(console)/_components/ui/badge';
import type { RouterOutputs } from '@/app/(console)/_lib/trpc';
import { formatDateTime } from '@/app/(console)/_lib/dates';

type Health = RouterOutputs['webhooks']['list']['items'][number]['health'];

/** The share as a whole percentage ("97 %"), or an em dash when nothing was attempted. */
export function formatRate(rate: number | null): string {
  return rate === null ? '—' : `${Math.floor(rate * 100)} %`;
}

/** A subscription's health in the list: the latest attempt's outcome and time, and the 24 h success rate. */
export function WebhookHealthCell({ health }: { health: Health }) {
  const last = health.last_delivery;
  return (
    <div className="min-w-36 space-y-1 text-xs text-slate-700">
      {last ? (
        <p className="flex flex-wrap items-center gap-1">
          <StatusBadge status={last.outcome} />
          {last.status_code !== null && <span className="tabular-nums">{last.status_code}</span>}
          <span className="whitespace-nowrap text-slate-600">{formatDateTime(last.attempted_at)}</span>
        </p>
      ) : (
        <p className="text-slate-600">No delivery yet</p>
      )}
      <p>
        <span className="tabular-nums" data-testid="success-rate-24h">
          {formatRate(health.success_rate_24h)}
        </span>{' '}
        <span className="text-slate-600">succeeded in 24 h{health.attempted_24h > 0 ? ` (${health.attempted_24h} attempted)` : ''}</span>
      </p>
    </div>
  );
}
