import { FlaskConical } from 'lucide-react';
import type { Mode } from '@/domain/modes';
import { cn } from '@/app/(console)/_lib/cn';
import { Badge } from '@/app/(console)/_components/ui/badge';

/** What a test network is, in one line: the shell's notice, the settings page and the sandbox dialog say it alike. */
export const TEST_MODE_MEANING =
  'Its API keys are test keys (sk_test_…), the paid voice vendor is never called, and webhook deliveries are marked as tests.';

/** What a live network is, for the settings page. */
export const LIVE_MODE_MEANING =
  'Real business: its API keys are live keys (sk_live_…), creatives are voiced by the service’s voice provider, and webhook deliveries are real.';

/** The small "Test" mark beside a test network's name (switcher, header, palette). */
export function TestBadge({ className }: { className?: string }) {
  return (
    <Badge tone="warning" className={cn('gap-1', className)} title="Test network (sandbox)">
      <FlaskConical className="size-3" aria-hidden />
      Test
    </Badge>
  );
}

/** The mode of a network, named, for the settings page: a badge for a test network, plain text for a live one. */
export function ModeName({ mode }: { mode: Mode }) {
  return mode === 'test' ? <TestBadge /> : <span className="font-medium text-slate-900">Live</span>;
}

/**
 * The strip at the top of every page of a test network (ConsoleShell): a sandbox must never be
 * taken for the real thing, whatever page a link opened. Not a landmark and not labelled: it is
 * read in its place, before the page's heading.
 */
export function TestNetworkNotice({ className }: { className?: string }) {
  return (
    <div
      data-testid="test-network-notice"
      className={cn('flex items-start gap-2.5 rounded-lg border border-amber-300 bg-amber-50 px-3.5 py-2.5 text-sm text-amber-900', className)}
    >
      <FlaskConical className="mt-0.5 size-4 shrink-0 text-amber-800" aria-hidden />
      <p className="min-w-0">
        <strong className="font-semibold">Test network</strong> — a sandbox. {TEST_MODE_MEANING}
      </p>
    </div>
  );
}
