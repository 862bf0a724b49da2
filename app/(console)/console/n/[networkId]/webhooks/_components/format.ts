export function formatLatency(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** A Date as the value of <input type="datetime-local"> (local time, minutes). */
export function toLocalInput(date: Date): string {
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** The value of <input type="datetime-local"> as an ISO 8601 instant, or undefined when empty or invalid. */
export function fromLocalInput(value: string): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** Pretty-printed JSON when the text is JSON, else the text unchanged. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** True when an API 409 is an optimistic-lock conflict (the version sent is stale). */
export function isVersionConflict(problem: { status: number; detail: string }): boolean {
  return problem.status === 409 && /version|modified|changed/i.test(problem.detail);
}

export const CONFLICT_SENTENCE = 'Someone else changed this webhook since you opened it — reload to see their change.';
