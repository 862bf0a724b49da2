import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { admitAttempt, endpointConcurrency, LANE_PREFIX, SLOW_AFTER_MS } from './lanes';

/**
 * Where a job beyond an endpoint's share goes (lanes.ts). Each test uses its own subscription id:
 * the admission state is per process and per subscription.
 */
function endpoint() {
  const webhookId = randomUUID();
  const admit = (now = Date.now()) => admitAttempt(webhookId, randomUUID(), now);
  const fill = () =>
    Array.from({ length: endpointConcurrency() }, () => {
      const admission = admit();
      if (!admission.admitted) throw new Error('expected a free slot');
      return admission;
    });
  return { admit, fill };
}

function deferred(admission: ReturnType<typeof admitAttempt>, now: number) {
  if (admission.admitted) throw new Error('expected the attempt to wait');
  return { lane: admission.queueName?.startsWith(LANE_PREFIX) ?? false, delayMs: admission.runAt.getTime() - now };
}

describe('admission beyond an endpoint’s share', () => {
  it('sends a busy, quick endpoint’s job back in 100–200 ms, outside the lanes', () => {
    const e = endpoint();
    e.fill();
    const now = Date.now();
    const d = deferred(e.admit(now), now);
    expect(d.lane).toBe(false);
    expect(d.delayMs).toBeGreaterThanOrEqual(100);
    expect(d.delayMs).toBeLessThanOrEqual(200);
  });

  it('puts a job in a lane, for 1 s, while an attempt has been in flight over SLOW_AFTER_MS', () => {
    const e = endpoint();
    e.fill();
    const later = Date.now() + SLOW_AFTER_MS + 1;
    expect(deferred(e.admit(later), later)).toEqual({ lane: true, delayMs: 1_000 });
  });

  it('puts a job in a lane after an attempt that got no answer, until a quick answer comes', () => {
    const e = endpoint();
    const [timedOut, ...rest] = e.fill();
    timedOut!.done({ latencyMs: 1_000, responded: false });
    e.admit(); // takes the freed slot: the endpoint is full again
    let now = Date.now();
    expect(deferred(e.admit(now), now).lane).toBe(true);

    // A flaky endpoint answers the next attempt at once: its backlog leaves the lanes.
    rest[0]!.done({ latencyMs: 5, responded: true });
    e.admit();
    now = Date.now();
    expect(deferred(e.admit(now), now).lane).toBe(false);
  });

  it('puts a job in a lane after an answer slower than SLOW_AFTER_MS', () => {
    const e = endpoint();
    const [slow] = e.fill();
    slow!.done({ latencyMs: SLOW_AFTER_MS + 1, responded: true });
    e.admit();
    const now = Date.now();
    expect(deferred(e.admit(now), now).lane).toBe(true);
  });
});
