import { setTimeout as sleep } from 'node:timers/promises';
import { config } from '@/server/config';
import { AppError, type Pace } from '@/server/errors';

/**
 * Refusals are paced. A request refused for a budget (429: its key's, owner's or network's bucket,
 * its network's preview queue, its address's failed-authentication lockout) is not answered at
 * once: it waits in its bucket's line for the time that bucket would take to admit it and every
 * refused request held before it (one token each), at most REFUSAL_HOLD_MS (1,000; a turn beyond it
 * is held a random 50–100 % of that, so a long line does not come back in one wave). An oversized
 * console batch (400) is held 50–100 % of REFUSAL_HOLD_MS. The answer's Retry-After then says what is left.
 *
 * Why: a refusal is cheap but not free (about 130 µs of CPU through tRPC), and a client that
 * retries at once in a loop, answered at once, sends thousands a second per connection: on two
 * cores that is CPU every other network's requests wait for (docs/PERFORMANCE.md, "Noisy
 * neighbours"). Held in line, the refusals of a bucket come back about as fast as it admits
 * requests, however many connections send them; and a client at its limit loses nothing, since it
 * is answered when its turn would have come (a key at 100/s waits ~10 ms, not a second).
 *
 * A held answer is a timer and an open connection: at most REFUSAL_HOLD_MAX are held per process
 * at once; past that, refusals are answered at once (the bound is on memory, not on fairness).
 */
let holding = 0;

/** A random 50–100 % of `ms`: refusals held this long do not come back together (see holdInLine). */
export const jittered = (ms: number): number => Math.round(ms * (0.5 + 0.5 * Math.random()));

/** Holds for up to `ms` (none when too many answers are held already); resolves with the ms held. */
export async function holdAnswer(ms: number): Promise<number> {
  if (ms <= 0 || holding >= config().REFUSAL_HOLD_MAX) return 0;
  holding++;
  try {
    await sleep(ms);
    return ms;
  } finally {
    holding--;
  }
}

/** Answers being held now (tests). */
export const heldAnswers = (): number => holding;

/** Refusals held now in each line (bucket), in this process. */
const lines = new Map<string, number>();

/** Holds one refusal in its line: its turn is the bucket's wait plus one token per refusal ahead of it. */
async function holdInLine(pace: Pace): Promise<{ heldMs: number; leftMs: number }> {
  const ahead = lines.get(pace.line) ?? 0;
  const turnMs = pace.waitMs + ahead * pace.everyMs;
  lines.set(pace.line, ahead + 1);
  try {
    const max = config().REFUSAL_HOLD_MS;
    // A turn past the longest hold is held a random 50–100 % of it: a line of many connections
    // (150 previews at once) would otherwise be answered together, and come back together, each
    // second, in waves that other networks' requests wait behind.
    const heldMs = await holdAnswer(turnMs <= max ? Math.ceil(turnMs) : jittered(max));
    return { heldMs, leftMs: Math.max(0, turnMs - heldMs) };
  } finally {
    const left = lines.get(pace.line)! - 1;
    if (left === 0) lines.delete(pace.line);
    else lines.set(pace.line, left);
  }
}

/** One hold per HTTP request: the refused calls of a console batch wait together. */
const holds = new WeakMap<object, Promise<{ heldMs: number; leftMs: number }>>();
/** Header objects already rewritten (a batch's calls share the request's bag). */
const rewritten = new WeakSet<Record<string, string>>();

/**
 * When `error` is a budget refusal, holds the request's answer (see above); then its Retry-After
 * says the time left of its turn (0 when the hold covered it) and RateLimit-Reset is lowered by
 * the seconds held. `request` is any object that lives as long as the HTTP request (its answer's
 * header bag); `headerBags` are the header objects the answer is written from.
 */
export async function paceRefusal(error: unknown, request: object, ...headerBags: Record<string, string>[]): Promise<void> {
  if (!(error instanceof AppError) || error.kind !== 'rate-limited' || !error.extra.pace) return;
  let hold = holds.get(request);
  if (!hold) holds.set(request, (hold = holdInLine(error.extra.pace)));
  const { heldMs, leftMs } = await hold;
  if (heldMs === 0) return;
  const heldSeconds = Math.floor(heldMs / 1000);
  for (const headers of [error.extra.headers ?? {}, ...headerBags]) {
    if (rewritten.has(headers)) continue;
    rewritten.add(headers);
    if (headers['Retry-After'] !== undefined) headers['Retry-After'] = String(Math.ceil(leftMs / 1000));
    const reset = headers['RateLimit-Reset'];
    if (reset !== undefined && /^\d+$/.test(reset)) headers['RateLimit-Reset'] = String(Math.max(0, Number(reset) - heldSeconds));
  }
}
