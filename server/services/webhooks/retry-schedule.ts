import { config } from '@/server/config';

/**
 * When to try a delivery again, after attempt N failed (N = 1…): a Svix-like
 * schedule — immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h — then give
 * up. WEBHOOK_RETRY_SCHEDULE (seconds, comma separated; server/config.ts) replaces it (tests).
 */
export const DEFAULT_SCHEDULE_SECONDS = [0, 5, 300, 1800, 7200, 18000, 36000, 36000];

export function retrySchedule(): number[] {
  return config().WEBHOOK_RETRY_SCHEDULE ?? DEFAULT_SCHEDULE_SECONDS;
}

/**
 * Delay in ms before attempt `attempt + 1`, or undefined when the schedule is
 * used up. The first attempt is immediate, so the schedule's entries are the
 * waits before attempts 2, 3, …; up to 10 % jitter spreads retries out, and a
 * `Retry-After` from the receiver is honoured when it asks for longer.
 */
const MAX_RETRY_AFTER_SECONDS = 24 * 3600;

export function nextRetryDelayMs(attempt: number, retryAfterSeconds?: number, schedule = retrySchedule()): number | undefined {
  const base = schedule[attempt - 1];
  if (base === undefined) return undefined;
  const jitter = base * 1000 * 0.1 * Math.random();
  // A receiver's Retry-After is honoured up to a day: an absurd one must not push the next
  // attempt past any date the schedule (and JavaScript's Date) can hold.
  const asked = Math.min(retryAfterSeconds ?? 0, MAX_RETRY_AFTER_SECONDS);
  return Math.max(base * 1000 + jitter, asked * 1000);
}
