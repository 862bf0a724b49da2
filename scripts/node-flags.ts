/**
 * The Node (V8) flags the service runs with. `npm start` and `npm run dev` pass them on their
 * command line (package.json; tests/node-flags.test.ts holds those scripts to this list), and
 * everything else that starts scripts/start.ts — the cluster's web processes, the e2e server,
 * the benchmark — spawns it with them. They cannot go in NODE_OPTIONS (Node refuses them there)
 * nor be set from inside the process: V8 reads them once, as it sets up the heap.
 *
 * `--no-memory-reducer`: V8's memory reducer, a heuristic made for browser tabs, runs full
 * collections once a process has been quiet for a few seconds and shrinks the heap, the young
 * generation down to 1 MB. The next burst of requests then pays for growing it back: young
 * collections every few dozen milliseconds instead of every second, each copying the requests in
 * flight, for ~8 s (a campaign POST's CPU per request +50 % in that time; docs/PERFORMANCE.md,
 * "/v1 at the speed of a bare server"). A server keeps its heap between bursts instead: its
 * resident size stays at what its load needed.
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--no-memory-reducer'];

/** The flags of SERVICE_NODE_FLAGS this process was started without (`npx tsx scripts/start.ts`, say). */
export function missingServiceNodeFlags(execArgv: readonly string[] = process.execArgv): string[] {
  return SERVICE_NODE_FLAGS.filter((flag) => !execArgv.includes(flag));
}
