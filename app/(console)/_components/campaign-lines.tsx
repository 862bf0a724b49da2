import { Check, X } from 'lucide-react';
import { containsLine } from '@/domain/creative-review';
import { cn } from '@/app/(console)/_lib/cn';

type HeadingLevel = 2 | 3;

/**
 * A campaign's talking points (what the read should get across, in the host's words) and required
 * lines (read word for word): on the campaign's page, in the review dialogs and on the host's review
 * page. With `script`, each required line says whether that script has it.
 */
export function CampaignLines({
  talkingPoints,
  requiredLines,
  script,
  headingLevel = 3,
  className,
}: {
  talkingPoints: readonly string[];
  requiredLines: readonly string[];
  script?: string;
  headingLevel?: HeadingLevel;
  className?: string;
}) {
  return (
    <div className={cn('space-y-4 text-sm', className)}>
      <TalkingPoints points={talkingPoints} headingLevel={headingLevel} />
      <RequiredLines lines={requiredLines} script={script} headingLevel={headingLevel} />
    </div>
  );
}

export function TalkingPoints({ points, headingLevel = 3 }: { points: readonly string[]; headingLevel?: HeadingLevel }) {
  const Heading = `h${headingLevel}` as const;
  return (
    <section className="text-sm">
      <Heading className="font-semibold text-slate-900">Talking points</Heading>
      {points.length ? (
        <ul className="mt-1.5 list-disc space-y-1 pl-5 text-slate-800" data-testid="talking-points">
          {points.map((point, i) => (
            <li key={i}>{point}</li>
          ))}
        </ul>
      ) : (
        <p className="mt-1 text-slate-600">None.</p>
      )}
    </section>
  );
}

/** The required lines, each with whether `script` reads it when a script is given. */
export function RequiredLines({ lines, script, headingLevel = 3 }: { lines: readonly string[]; script?: string; headingLevel?: HeadingLevel }) {
  const Heading = `h${headingLevel}` as const;
  return (
    <section className="text-sm">
      <Heading className="font-semibold text-slate-900">Required lines</Heading>
      <p className="text-xs text-slate-600">Read word for word: every script must contain each of them.</p>
      {lines.length ? (
        <ul className="mt-1.5 space-y-1.5" data-testid="required-lines">
          {lines.map((line, i) => {
            const has = script === undefined ? undefined : containsLine(script, line);
            return (
              <li key={i} className="flex items-start gap-2 rounded-md bg-slate-50 px-3 py-2 text-slate-900">
                {has !== undefined &&
                  (has ? (
                    <Check className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden />
                  ) : (
                    <X className="mt-0.5 size-4 shrink-0 text-red-600" aria-hidden />
                  ))}
                <span className="min-w-0 break-words">
                  “{line}”
                  {has !== undefined && (
                    <span className={cn('block text-xs', has ? 'text-emerald-700' : 'text-red-700')}>
                      {has ? 'In the script' : 'Missing from the script'}
                    </span>
                  )}
                </span>
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="mt-1 text-slate-600">None.</p>
      )}
    </section>
  );
}
