'use client';

import { Check, Loader2, Minus, RotateCw, X } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/app/(console)/_components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogFooter } from '@/app/(console)/_components/ui/dialog';
import { IntentLink } from '@/app/(console)/_components/ui/intent-link';
import { settleBounded } from '@/app/(console)/_lib/bounded';
import { problemSentence } from '@/app/(console)/_lib/problem';

/*
 * A bulk action runs the row's own procedure once per selected row — the call its single-row
 * button makes, so the same authorization, checks and idempotency apply — a few at a time, and
 * shows what became of each row: done, or the API's answer. Nothing is dropped: a refusal or a
 * network error is reported on its row, and "Retry failed" runs those rows again. Where the API
 * takes the rows in one call and answers each (a flight offered to many podcasts), `batch` makes
 * that call instead, and the dialog is the same.
 */

/** How many of a bulk action's calls are under way at once. */
export const BULK_CONCURRENCY = 4;

/** One selected row: its id, how the results name it, and its own call (none with the run's `batch`). */
export interface BulkItem {
  id: string;
  name: string;
  /** The row's call. It resolves to `doneAs('already revoked')` when the row was already what the action makes it. */
  perform?: () => Promise<unknown>;
}

const DONE_AS = Symbol('done as');
const DONE_LINK = Symbol('done link');

/**
 * What a row's call resolves to when it succeeded but did nothing new — a key someone else had
 * revoked: the row says `label` ("Already revoked") instead of the action's `done`, and the summary
 * counts it apart ("2 revoked, 1 already revoked.").
 */
export const doneAs = (label: string) => ({ [DONE_AS]: label });

/** What a row's call resolves to when what it made has a page: the row links to it ("View offer"). */
export const doneWithLink = (href: string, text: string) => ({ [DONE_LINK]: { href, text } });

const labelOf = (answer: unknown): string | undefined =>
  typeof answer === 'object' && answer !== null && DONE_AS in answer ? String(answer[DONE_AS]) : undefined;

const linkOf = (answer: unknown): { href: string; text: string } | undefined =>
  typeof answer === 'object' && answer !== null && DONE_LINK in answer ? (answer[DONE_LINK] as { href: string; text: string }) : undefined;

export interface BulkRunSpec {
  /** The results dialog's title, e.g. "Revoke keys". */
  title: string;
  /** Under the title; by default "Each selected row and what the API answered for it." */
  description?: string;
  /** What a row became when its call succeeded, e.g. "revoked": "Revoked" on the row, "7 revoked, 1 failed" in the summary. */
  done: string;
  items: BulkItem[];
  /**
   * One call for many rows, in place of each row's `perform`: settles each item, in their order. A
   * rejection of the whole call fails every row with its sentence. "Retry failed" calls it again
   * with the failed rows.
   */
  batch?: (items: BulkItem[]) => Promise<PromiseSettledResult<unknown>[]>;
}

/** `as`: the row was already so (`doneAs`); without it, the action's `done`. `link`: what it made (`doneWithLink`). */
type Outcome = { state: 'waiting' } | { state: 'done'; as?: string; link?: { href: string; text: string } } | { state: 'failed'; message: string };

const WAITING: Outcome = { state: 'waiting' };

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The run of a page's bulk actions and the dialog with its results:
 *
 *   const bulk = useBulkRun({ onFinished: () => queryClient.invalidateQueries({ queryKey: trpc.keys.pathKey() }) });
 *   bulk.start({ title: 'Revoke keys', done: 'revoked', items: rows.map((k) => ({ id: k.id, name: k.key_name, perform: () => revoke.mutateAsync({ … }) })) });
 *   … {bulk.dialog}
 *
 * `sentence` turns a row's error into what the row says (problemSentence by default).
 */
export function useBulkRun({ onFinished, sentence = problemSentence }: { onFinished?: () => unknown; sentence?: (error: unknown) => string } = {}) {
  const [run, setRun] = useState<BulkRunSpec>();
  const [outcomes, setOutcomes] = useState<ReadonlyMap<string, Outcome>>(() => new Map());
  const [running, setRunning] = useState(false);
  const [open, setOpen] = useState(false);

  const outcomeOf = (result: PromiseSettledResult<unknown>): Outcome =>
    result.status === 'fulfilled'
      ? { state: 'done', as: labelOf(result.value), link: linkOf(result.value) }
      : { state: 'failed', message: capitalized(sentence(result.reason)) };

  async function perform(spec: BulkRunSpec, items: BulkItem[]) {
    setRunning(true);
    setOutcomes((current) => new Map([...current, ...items.map((item) => [item.id, WAITING] as const)]));
    const settle = (index: number, result: PromiseSettledResult<unknown>) =>
      setOutcomes((current) => new Map(current).set(items[index]!.id, outcomeOf(result)));
    if (spec.batch) {
      const results = await spec
        .batch(items)
        .catch((reason: unknown) => items.map((): PromiseSettledResult<unknown> => ({ status: 'rejected', reason })));
      results.forEach((result, index) => settle(index, result));
    } else {
      await settleBounded(items, BULK_CONCURRENCY, (item) => item.perform!(), settle);
    }
    setRunning(false);
    await onFinished?.();
  }

  /**
   * Opens the results and runs the rows' calls; with `settled`, shows results already known
   * instead (the batch call a form made when it was submitted: its refusal of the whole request
   * stays in the form, at its fields).
   */
  function start(spec: BulkRunSpec, settled?: PromiseSettledResult<unknown>[]) {
    setRun(spec);
    setOpen(true);
    if (settled) {
      setOutcomes(new Map(spec.items.map((item, index) => [item.id, settled[index] ? outcomeOf(settled[index]) : WAITING])));
      void onFinished?.();
    } else {
      setOutcomes(new Map());
      void perform(spec, spec.items);
    }
  }

  const failed = run?.items.filter((item) => outcomes.get(item.id)?.state === 'failed') ?? [];
  const dialog = run && (
    <BulkResultsDialog
      open={open}
      // Kept open while calls are under way: the results are the only place they are reported.
      onOpenChange={(next) => (next || !running) && setOpen(next)}
      title={run.title}
      description={run.description}
      done={run.done}
      items={run.items}
      outcomes={outcomes}
      running={running}
      onRetryFailed={failed.length > 0 ? () => void perform(run, failed) : undefined}
    />
  );
  return { start, dialog, running };
}

function BulkResultsDialog({
  open,
  onOpenChange,
  title,
  description = 'Each selected row and what the API answered for it.',
  done,
  items,
  outcomes,
  running,
  onRetryFailed,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  done: string;
  items: BulkItem[];
  outcomes: ReadonlyMap<string, Outcome>;
  running: boolean;
  onRetryFailed?: () => void;
}) {
  const settled = items.map((item) => outcomes.get(item.id) ?? WAITING);
  const count = (state: Outcome['state']) => settled.filter((outcome) => outcome.state === state).length;
  const [failed, waiting] = [count('failed'), count('waiting')];
  // "2 revoked", then each other way rows ended ("1 already revoked"), then the failures: "2 revoked, 1 already revoked, 1 failed."
  const ended = new Map<string, number>([[done, 0]]);
  for (const outcome of settled) if (outcome.state === 'done') ended.set(outcome.as ?? done, (ended.get(outcome.as ?? done) ?? 0) + 1);
  if (failed > 0) ended.set('failed', failed);
  const summary = running
    ? `Working… ${items.length - waiting} of ${items.length} finished.`
    : `${[...ended].map(([label, n]) => `${n} ${label}`).join(', ')}.`;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={title} description={description} className="max-w-xl">
        <p role="status" className="mb-3 text-sm font-medium text-slate-900" data-testid="bulk-summary">
          {summary}
        </p>
        <ul aria-label="Results" className="max-h-[50dvh] divide-y divide-slate-100 overflow-y-auto rounded-md border border-slate-200">
          {items.map((item) => {
            const outcome = outcomes.get(item.id) ?? WAITING;
            return (
              <li key={item.id} className="flex items-start gap-3 px-3 py-2 text-sm">
                {outcome.state === 'done' && outcome.as ? (
                  <Minus className="mt-0.5 size-4 shrink-0 text-slate-500" aria-hidden />
                ) : outcome.state === 'done' ? (
                  <Check className="mt-0.5 size-4 shrink-0 text-emerald-700" aria-hidden />
                ) : outcome.state === 'failed' ? (
                  <X className="mt-0.5 size-4 shrink-0 text-red-700" aria-hidden />
                ) : (
                  <Loader2 className="mt-0.5 size-4 shrink-0 animate-spin text-slate-500 motion-reduce:animate-none" aria-hidden />
                )}
                <div className="min-w-0 flex-1">
                  <div className="font-medium break-words text-slate-900">{item.name}</div>
                  {outcome.state === 'done' && outcome.as ? (
                    <div className="text-slate-700">{capitalized(outcome.as)}</div>
                  ) : outcome.state === 'done' ? (
                    <div className="flex flex-wrap gap-x-3 text-emerald-800">
                      {capitalized(done)}
                      {outcome.link && (
                        <IntentLink href={outcome.link.href} className="text-indigo-700 underline underline-offset-4">
                          {outcome.link.text}
                        </IntentLink>
                      )}
                    </div>
                  ) : outcome.state === 'failed' ? (
                    <div className="break-words text-red-800">{outcome.message}</div>
                  ) : (
                    <div className="text-slate-600">Waiting…</div>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
        <DialogFooter>
          {onRetryFailed && !running && (
            <Button variant="secondary" onClick={onRetryFailed}>
              <RotateCw aria-hidden /> Retry failed ({failed})
            </Button>
          )}
          <DialogClose asChild>
            <Button disabled={running}>Done</Button>
          </DialogClose>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
