import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { describe, expect, it } from 'vitest';
import { localProvider } from '@/server/synth/local';

/** The nice value of each thread of this process, from /proc (field 19 of a task's stat). */
function threadNiceValues(): number[] {
  return readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count from after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[16]);
  });
}

/**
 * Synthesis is background work: the local engine's thread runs 10 nice levels below the service,
 * so that a network's flood of previews keeps the engine busy without taking the CPU from the
 * event loop that serves every network's requests (server/synth/local-engine.worker.ts).
 */
describe.runIf(process.platform === 'linux')('the local engine thread', () => {
  it('runs 10 nice levels below the service', async () => {
    const below = Math.min(19, getPriority() + 10);
    expect(threadNiceValues()).not.toContain(below);
    await localProvider().synthesize({ text: 'Priority check.', voice: 'default' });
    expect(threadNiceValues()).toContain(below);
    expect(getPriority()).toBeLessThan(below);
  });
});
