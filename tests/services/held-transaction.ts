import { database, type Tx } from '@/db/client';

/**
 * A transaction that runs `work`, then stays open, holding its locks, until `commit()` is called:
 * the worst moment of an interleaving, on purpose. `written()` says whether `work` has finished.
 */
export function heldTransaction<T>(work: (tx: Tx) => Promise<T>) {
  let commit!: () => void;
  const gate = new Promise<void>((resolve) => (commit = resolve));
  let done = false;
  const result = database().transaction(async (tx) => {
    const value = await work(tx);
    done = true;
    await gate;
    return value;
  });
  return { result, commit, written: () => done };
}
