/**
 * Runs `task` over every item, at most `limit` at a time, and settles them all: one item's
 * rejection (a refusal, a network error) stops nothing and is handed to `onSettled` with its
 * index, as each settles. Resolves once every item has settled, with their results in order.
 */
export async function settleBounded<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
  onSettled?: (index: number, result: PromiseSettledResult<R>) => void,
): Promise<PromiseSettledResult<R>[]> {
  const results: PromiseSettledResult<R>[] = new Array(items.length);
  let next = 0;
  async function worker() {
    while (next < items.length) {
      const index = next++;
      let result: PromiseSettledResult<R>;
      try {
        result = { status: 'fulfilled', value: await task(items[index]!) };
      } catch (reason) {
        result = { status: 'rejected', reason };
      }
      results[index] = result;
      onSettled?.(index, result);
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}
