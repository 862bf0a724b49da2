import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { config, loadConfig, setConfig } from '@/server/config';
import {
  admitAttempt,
  admitAttemptSoon,
  endpointConcurrency,
  LANE_PREFIX,
  networkConcurrency,
  networkDeferral,
  QUICK_WAIT_MS,
  SLOW_AFTER_MS,
} from './lanes';

/**
 * Where a job beyond an endpoint's or a network's share goes (lanes.ts). Each test uses its own
 * network and subscription ids: the admission state is per process and per network/subscription.
 */
let saved: ReturnType<typeof config>;
const useShare = (share: string, concurrency = '20') =>
  setConfig(loadConfig({ ...process.env, WORKER_CONCURRENCY: concurrency, WORKER_NETWORK_SHARE: share } as NodeJS.ProcessEnv));
beforeEach(() => {
  saved = config();
});
afterEach(() => setConfig(saved));

function endpoint(networkId = randomUUID()) {
  const webhookId = randomUUID();
  const admit = (now = Date.now()) => admitAttempt({ networkId, webhookId, deliveryId: randomUUID(), now });
  const fill = (count = endpointConcurrency()) =>
    Array.from({ length: count }, () => {
      const admission = admit();
      if (!admission.admitted) throw new Error('expected a free slot');
      return admission;
    });
  return { networkId, admit, fill };
}

function deferred(admission: ReturnType<typeof admitAttempt>, now: number) {
  if (admission.admitted) throw new Error('expected the attempt to wait');
  return {
    lane: admission.queueName?.startsWith(LANE_PREFIX) ?? false,
    delayMs: admission.runAt.getTime() - now,
    heldBy: admission.heldBy,
    queueName: admission.queueName,
  };
}

describe('admission beyond an endpoint’s share', () => {
  // Every slot of the pool may go to one network here: these tests are about the endpoint's share.
  beforeEach(() => useShare('20'));

  it('sends a busy, quick endpoint’s job back in 100–200 ms, outside the lanes', () => {
    const e = endpoint();
    e.fill();
    const now = Date.now();
    const d = deferred(e.admit(now), now);
    expect(d.lane).toBe(false);
    expect(d.heldBy).toBe('endpoint');
    expect(d.delayMs).toBeGreaterThanOrEqual(100);
    expect(d.delayMs).toBeLessThanOrEqual(200);
  });

  it('puts a job in a lane, for 1 s, while an attempt has been in flight over SLOW_AFTER_MS', () => {
    const e = endpoint();
    e.fill();
    const later = Date.now() + SLOW_AFTER_MS + 1;
    expect(deferred(e.admit(later), later)).toMatchObject({ lane: true, delayMs: 1_000, heldBy: 'endpoint' });
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

describe('admission beyond a network’s share (WORKER_NETWORK_SHARE)', () => {
  it('is a fraction of WORKER_CONCURRENCY, or a number of slots, at least one and at most all', () => {
    useShare('0.25', '20');
    expect(networkConcurrency()).toBe(5);
    useShare('0.25', '2');
    expect(networkConcurrency()).toBe(1);
    useShare('3', '20');
    expect(networkConcurrency()).toBe(3);
    useShare('50', '20');
    expect(networkConcurrency()).toBe(20);
  });

  it('holds a network with many endpoints to its share; another network is admitted meanwhile', () => {
    useShare('0.25', '20');
    const networkId = randomUUID();
    // Five endpoints of one network, one attempt each: the network's five slots.
    const held = Array.from({ length: networkConcurrency() }, () => endpoint(networkId).fill(1)[0]!);
    const now = Date.now();
    const sixth = deferred(endpoint(networkId).admit(now), now);
    expect(sixth).toMatchObject({ lane: false, heldBy: 'network' });
    expect(endpoint().admit().admitted).toBe(true); // network B

    // Once one of its attempts ends, the network may start another.
    held[0]!.done({ latencyMs: 5, responded: true });
    expect(endpoint(networkId).admit().admitted).toBe(true);
  });

  it('sends a job back later the longer its network’s attempts have neither started nor ended, up to 1–2 s', () => {
    useShare('0.25', '20');
    const networkId = randomUUID();
    const started = Date.now();
    Array.from({ length: networkConcurrency() }, () => endpoint(networkId).fill(1)); // five attempts, all hanging
    const delayAt = (at: number) => deferred(endpoint(networkId).admit(at), at);
    expect(delayAt(started).delayMs).toBeLessThanOrEqual(200); // just started: a place may free any moment
    const quiet = delayAt(started + 800);
    expect(quiet).toMatchObject({ lane: false, heldBy: 'network' });
    expect(quiet.delayMs).toBeGreaterThanOrEqual(800);
    expect(quiet.delayMs).toBeLessThanOrEqual(1_600);
    expect(delayAt(started + 1_900).delayMs).toBeLessThanOrEqual(2_000);
  });

  it('does not send a network’s backlog to lanes for one endpoint’s time-out while its other attempts are young', () => {
    useShare('0.25', '20');
    const networkId = randomUUID();
    const [timedOut] = Array.from({ length: networkConcurrency() }, () => endpoint(networkId).fill(1)[0]!);
    timedOut!.done({ latencyMs: 15_000, responded: false });
    endpoint(networkId).fill(1);
    const now = Date.now();
    expect(deferred(endpoint(networkId).admit(now), now)).toMatchObject({ lane: false, heldBy: 'network' });
  });

  it('sends the backlog of a network whose share is held by attempts past SLOW_AFTER_MS into its own lanes, as many as its share', () => {
    useShare('0.25', '20');
    const networkId = randomUUID();
    for (let i = 0; i < networkConcurrency(); i++) endpoint(networkId).fill(1);
    const later = Date.now() + SLOW_AFTER_MS + 1;
    const lanes = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const d = deferred(endpoint(networkId).admit(later), later);
      expect(d).toMatchObject({ lane: true, delayMs: 1_000, heldBy: 'network' });
      lanes.add(d.queueName!);
    }
    expect([...lanes].every((lane) => lane.startsWith(`${LANE_PREFIX}${networkId}:`))).toBe(true);
    expect(lanes.size).toBeLessThanOrEqual(networkConcurrency());
  });
});

describe('a job beyond a busy network’s share waits briefly in process (admitAttemptSoon)', () => {
  /** A network at its share whose attempts have been ending (one ended a moment ago, and its place was taken again). */
  function busyNetwork() {
    useShare('0.25', '20');
    const networkId = randomUUID();
    const held = Array.from({ length: networkConcurrency() }, () => endpoint(networkId).fill(1)[0]!);
    held.shift()!.done({ latencyMs: 5, responded: true });
    held.push(endpoint(networkId).fill(1)[0]!);
    return { networkId, held, next: () => admitAttemptSoon({ networkId, webhookId: randomUUID(), deliveryId: randomUUID() }) };
  }

  it('is admitted as soon as one of the network’s attempts ends, without being put back', async () => {
    const n = busyNetwork();
    const waiting = n.next();
    await new Promise((r) => setTimeout(r, 20));
    n.held[0]!.done({ latencyMs: 5, responded: true });
    expect((await waiting).admitted).toBe(true);
  });

  it('is put back (outside the lanes) when nothing ends within QUICK_WAIT_MS', async () => {
    const n = busyNetwork();
    const started = Date.now();
    const admission = await n.next();
    expect(Date.now() - started).toBeGreaterThanOrEqual(QUICK_WAIT_MS - 5);
    expect(admission).toMatchObject({ admitted: false, queueName: null, heldBy: 'network' });
  });

  it('does not wait for a network whose attempts are not ending (hanging endpoints): its job is put back at once', async () => {
    useShare('0.25', '20');
    const networkId = randomUUID();
    for (let i = 0; i < networkConcurrency(); i++) endpoint(networkId).fill(1);
    const started = Date.now();
    const admission = await admitAttemptSoon({ networkId, webhookId: randomUUID(), deliveryId: randomUUID() });
    expect(Date.now() - started).toBeLessThan(50);
    expect(admission).toMatchObject({ admitted: false, queueName: null, heldBy: 'network' });
  });
});

describe('a job of a network whose share is held by attempts that are not ending is put back unread (networkDeferral)', () => {
  it('defers it from the job alone while the share is full and nothing has ended within QUICK_WAIT_MS; lanes once the attempts are slow', () => {
    useShare('0.25', '20');
    const networkId = randomUUID();
    const job = (now: number) => networkDeferral({ networkId, deliveryId: randomUUID(), now });
    expect(job(Date.now())).toBeNull(); // nothing in flight: read and admitted as usual
    const held = Array.from({ length: networkConcurrency() }, () => endpoint(networkId).fill(1)[0]!);
    const now = Date.now();
    expect(job(now)).toMatchObject({ admitted: false, queueName: null, heldBy: 'network' });
    expect(job(now + SLOW_AFTER_MS + 1)).toMatchObject({
      admitted: false,
      heldBy: 'network',
      queueName: expect.stringContaining(`${LANE_PREFIX}${networkId}:`),
    });

    // An attempt ends: the network's attempts are ending, so a job is read and may wait for a place.
    held[0]!.done({ latencyMs: 5, responded: true });
    endpoint(networkId).fill(1);
    expect(job(Date.now())).toBeNull();
    expect(job(Date.now() + QUICK_WAIT_MS + 1)).toMatchObject({ admitted: false, heldBy: 'network' });
  });

  it('leaves a network with room to the full admission', () => {
    useShare('0.25', '20');
    const networkId = randomUUID();
    endpoint(networkId).fill(1);
    expect(networkDeferral({ networkId, deliveryId: randomUUID() })).toBeNull();
  });
});
