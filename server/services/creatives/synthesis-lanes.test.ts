import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { config, loadConfig, setConfig } from '@/server/config';
import { admitSynthesis, SYNTHESIS_LANE_PREFIX, synthesisNetworkConcurrency } from './synthesis-lanes';

let saved: ReturnType<typeof config>;
beforeEach(() => {
  saved = config();
  setConfig(loadConfig({ ...process.env, WORKER_SYNTHESIS_CONCURRENCY: '8', WORKER_NETWORK_SHARE: '0.25' } as NodeJS.ProcessEnv));
});
afterEach(() => setConfig(saved));

const admit = (networkId: string) => admitSynthesis({ networkId, creativeId: `cre_${randomUUID()}` });

describe('synthesis admission per network (WORKER_NETWORK_SHARE of WORKER_SYNTHESIS_CONCURRENCY)', () => {
  it('admits a network up to its share, puts the next into one of its lanes for 1 s, and admits another network meanwhile', () => {
    const a = randomUUID();
    expect(synthesisNetworkConcurrency()).toBe(2);
    const held = [admit(a), admit(a)];
    expect(held.every((x) => x.admitted)).toBe(true);
    const now = Date.now();
    const lanes = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const next = admitSynthesis({ networkId: a, creativeId: `cre_${randomUUID()}`, now });
      if (next.admitted) throw new Error('expected the job to wait');
      expect(next.runAt.getTime() - now).toBe(1_000);
      lanes.add(next.queueName);
    }
    expect([...lanes].sort()).toEqual([`${SYNTHESIS_LANE_PREFIX}${a}:0`, `${SYNTHESIS_LANE_PREFIX}${a}:1`]);
    expect(admit(randomUUID()).admitted).toBe(true);

    // A finished synthesis frees its place (once, however often `done` is called).
    if (!held[0]!.admitted) throw new Error('unreachable');
    held[0]!.done();
    held[0]!.done();
    expect(admit(a).admitted).toBe(true);
    expect(admit(a).admitted).toBe(false);
  });
});
