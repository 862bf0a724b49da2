import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { procSyscalls } from '@/scripts/bench/proc';

// `npm run bench` divides these counts by the requests served to show that the service and the
// bare server make the same round trips (docs/PERFORMANCE.md, "/v1 at the speed of a bare server"):
// they must count calls.
describe('procSyscalls (scripts/bench/proc.ts)', () => {
  it("counts this process's read and write system calls", () => {
    const sink = openSync('/dev/null', 'w');
    const source = openSync('/dev/zero', 'r');
    const buffer = Buffer.alloc(16);
    try {
      const before = procSyscalls(process.pid);
      for (let i = 0; i < 50; i++) {
        writeSync(sink, buffer);
        readSync(source, buffer);
      }
      const after = procSyscalls(process.pid);
      // At least the 50 of each made here (other threads of this process may add their own).
      expect(after.writes - before.writes).toBeGreaterThanOrEqual(50);
      expect(after.reads - before.reads).toBeGreaterThanOrEqual(50);
    } finally {
      closeSync(sink);
      closeSync(source);
    }
  });

  it('is NaN for a process that does not exist, never a count', () => {
    expect(procSyscalls(2 ** 22 + 1)).toEqual({ reads: Number.NaN, writes: Number.NaN });
  });
});
