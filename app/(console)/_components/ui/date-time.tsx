import { formatDateTime } from '@/app/(console)/_lib/dates';
import { cn } from '@/app/(console)/_lib/cn';

/** An instant in the console's one format, as a `<time>` whose title is the exact ISO value. */
export function DateTime({ value, unset = '—', className }: { value: string | null | undefined; unset?: string; className?: string }) {
  if (!value) return <span className={className}>{unset}</span>;
  return (
    <time dateTime={value} title={value} className={cn('whitespace-nowrap', className)}>
      {formatDateTime(value)}
    </time>
  );
}
