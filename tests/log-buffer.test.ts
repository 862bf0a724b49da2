/**
 * Guards patches/sonic-boom+4.2.1.patch: the log destination (pino.destination, sonic-boom)
 * keeps the byte length of the buffer it appends to instead of measuring the concatenated
 * string on every line (which flattened it each time: O(n²) bytes per buffer). What must not
 * change: every line reaches the file, in order, and no buffer grows past `maxWrite` by
 * appending (a single longer line is written as it is).
 */
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import pino from 'pino';
import { describe, expect, it } from 'vitest';

type Boom = ReturnType<typeof pino.destination> & { _bufs: string[]; maxWrite: number; fd: number };

describe('the buffered log destination', () => {
  it('writes every line in order and never appends a buffer past maxWrite, for any lines and flushes', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'log-buffer-'));
    try {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.oneof(
              {
                weight: 9,
                arbitrary: fc.record({
                  line: fc.string({ unit: fc.constantFrom('a', 'é', '€', '😀', '\n'), minLength: 1, maxLength: 2000, size: 'max' }),
                }),
              },
              { weight: 1, arbitrary: fc.record({ flush: fc.constant(true) }) },
            ),
            { maxLength: 60 },
          ),
          async (steps) => {
            const file = path.join(dir, `${run++}.log`);
            const dest = pino.destination({ dest: file, sync: false, minLength: 4096, maxWrite: 8192, mkdir: true }) as Boom;
            if (dest.fd < 0) await once(dest, 'ready');
            let expected = '';
            for (const step of steps) {
              if ('flush' in step) {
                await new Promise<void>((resolve, reject) => dest.flush((error) => (error ? reject(error) : resolve())));
                continue;
              }
              dest.write(step.line);
              expected += step.line;
              // Appending stops at maxWrite (no line here is longer than 8,000 bytes).
              for (const buf of dest._bufs) expect(Buffer.byteLength(buf)).toBeLessThanOrEqual(dest.maxWrite);
            }
            dest.end();
            await once(dest, 'close');
            expect(readFileSync(file, 'utf8')).toBe(expected);
          },
        ),
        { numRuns: 60, endOnFailure: true },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
