import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { settleBounded } from '@/app/(console)/_lib/bounded';

/*
 * The console's bulk actions (revoke keys, accept or reject offers, redeliver) run through
 * settleBounded: a few requests at a time, one row's failure stopping nothing, each row's result
 * shown as it settles. Here with tasks that finish in every order fast-check's scheduler picks.
 */

describe('settleBounded', () => {
  it('settles every item, results in input order, at most `limit` at once, failures included', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.array(fc.boolean(), { maxLength: 12 }), fc.integer({ min: 1, max: 5 }), async (s, fails, limit) => {
        const items = fails.map((fail, index) => ({ fail, index }));
        let inFlight = 0;
        let most = 0;
        const reported: Array<[number, PromiseSettledResult<number>]> = [];
        const results = await s.waitFor(
          settleBounded(
            items,
            limit,
            async ({ fail, index }) => {
              inFlight++;
              most = Math.max(most, inFlight);
              try {
                await s.schedule(Promise.resolve(), `item ${index}`);
                if (fail) throw new Error(`item ${index} refused`);
                return index * 10;
              } finally {
                inFlight--;
              }
            },
            (index, result) => reported.push([index, result]),
          ),
        );

        expect(results).toEqual(
          items.map(({ fail, index }) =>
            fail ? { status: 'rejected', reason: new Error(`item ${index} refused`) } : { status: 'fulfilled', value: index * 10 },
          ),
        );
        // Every item reported once, as it settled, with the result it ends with.
        expect(reported.map(([index]) => index).sort((a, b) => a - b)).toEqual(items.map(({ index }) => index));
        for (const [index, result] of reported) expect(result).toEqual(results[index]);
        // Never more than `limit` at once, and as many as it allows while there are enough items.
        expect(most).toBeLessThanOrEqual(limit);
        expect(most).toBe(Math.min(limit, items.length));
      }),
    );
  });

  it('runs the next item as soon as one settles, not when a whole batch has', async () => {
    const release: Array<() => void> = [];
    const started: number[] = [];
    const run = settleBounded([0, 1, 2], 2, (item) => {
      started.push(item);
      return new Promise<number>((resolve) => release.push(() => resolve(item)));
    });
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    release[1]!(); // the second finishes first: the third starts while the first still runs
    await new Promise((r) => setTimeout(r, 0));
    expect(started).toEqual([0, 1, 2]);
    release[0]!();
    release[2]!();
    expect((await run).map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
  });
});
