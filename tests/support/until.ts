/**
 * Poll `fn` every `everyMs` (50 ms unless given) until it answers something other than undefined;
 * throw after `ms`. A poll that asks the service over HTTP costs it a request (~5–10 ms of CPU on
 * both sides): what waits seconds for the worker asks less often (`everyMs` 250).
 */
export async function until<T>(fn: () => T | undefined | Promise<T | undefined>, ms = 15_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Poll `condition` every 100 ms until it holds; throw, naming `what`, after `ms`. */
export async function waitFor(condition: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
