import { IntentLink } from '@/app/(console)/_components/ui/intent-link';
import { cn } from '@/app/(console)/_lib/cn';
import { objectLink } from '@/app/(console)/_lib/object-links';

/**
 * An object's id on one line, cut with an ellipsis where it does not fit (the whole id stays the
 * text: copied, read aloud and shown on hover), linking to where the console shows the object.
 */
export function ObjectId({ networkId, id, className }: { networkId: string; id: string; className?: string }) {
  const link = objectLink(networkId, id);
  const classes = cn('inline-block max-w-full truncate align-bottom font-mono text-xs', className);
  return link ? (
    <IntentLink href={link.href} title={id} className={cn(classes, 'text-indigo-700 underline-offset-4 hover:underline')}>
      {id}
    </IntentLink>
  ) : (
    <span title={id} className={cn(classes, 'text-slate-900')}>
      {id}
    </span>
  );
}

/** Does this value look like one of our ids (`off_01jd…`)? */
export const looksLikeId = (value: unknown): value is string => typeof value === 'string' && /^[a-z]{2,4}_[0-9a-z]{20,32}$/.test(value);
