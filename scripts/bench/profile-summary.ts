/**
 * Summarizes a V8 CPU profile (`node --cpu-prof`) of the service under load: where the busy time
 * went, by package (node_modules/<name>, our own code, Node's internals, GC) and by function.
 *
 *   BENCH_TARGETS=me-su BENCH_SERVICE_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" npm run bench
 *   npx tsx scripts/bench/profile-summary.ts /tmp/prof/CPU.….cpuprofile [--last-seconds 30] [--top 25]
 *
 * `--last-seconds` keeps only the samples of the profile's last N seconds (the load: the bench
 * stops the service right after its runs), so start-up (compiling, `next` preparing) is left out.
 * Shares are of the busy samples: idle time is not counted.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

function packageOf(frame: ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(program)') return '(program: V8 and native, unattributed)';
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + '/node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const root = url.indexOf('/server/') >= 0 ? url.slice(url.indexOf('/server/') + 1) : url.split('/').slice(-2).join('/');
  return `ours: ${root.split('/').slice(0, 2).join('/')}`;
}

function main(): void {
  const args = process.argv.slice(2);
  const file = args.find((a) => !a.startsWith('--'));
  if (!file) throw new Error('usage: profile-summary.ts FILE.cpuprofile [--last-seconds N] [--top N]');
  const option = (name: string) => {
    const at = args.indexOf(name);
    return at >= 0 ? Number(args[at + 1]) : undefined;
  };
  const lastSeconds = option('--last-seconds');
  const top = option('--top') ?? 25;
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));

  // Sample times: startTime + the running sum of timeDeltas (µs).
  const from = lastSeconds === undefined ? -Infinity : profile.endTime - lastSeconds * 1e6;
  const selfUs = new Map<number, number>();
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i]!;
    t += delta;
    if (t < from) continue;
    selfUs.set(profile.samples[i]!, (selfUs.get(profile.samples[i]!) ?? 0) + delta);
  }
  const parentOf = new Map<number, ProfileNode>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node);
  /** A native function's nearest JavaScript caller, e.g. which write a `writeUtf8String` served. */
  const jsCaller = (id: number): string => {
    for (let p = parentOf.get(id); p; p = parentOf.get(p.id)) {
      if (p.callFrame.url)
        return `${p.callFrame.functionName || '(anonymous)'} ${p.callFrame.url.replace(/^.*\/node_modules\//, '')}:${p.callFrame.lineNumber + 1}`;
    }
    return '(none)';
  };
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const nativeByCaller = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === '(idle)') {
      idle += us;
      continue;
    }
    busy += us;
    const pkg = packageOf(frame);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
    const where = frame.url
      ? `${frame.url.replace(/^.*\/node_modules\//, '').replace(/^file:\/\/.*?\/(server|db|scripts)\//, '$1/')}:${frame.lineNumber + 1}`
      : '';
    const key = `${frame.functionName || '(anonymous)'} ${where}`.trim();
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
    if (!frame.url && !frame.functionName.startsWith('(')) {
      const caller = `${frame.functionName} ← ${jsCaller(id)}`;
      nativeByCaller.set(caller, (nativeByCaller.get(caller) ?? 0) + us);
    }
  }
  const pct = (us: number) => `${((100 * us) / busy).toFixed(1)} %`;
  const table = (title: string, rows: Map<string, number>) => {
    console.log(`\n| ${title} | self time |\n|---|---|`);
    for (const [name, us] of [...rows].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`| ${name.replace(/\|/g, '\\|')} | ${pct(us)} |`);
  };
  console.log(
    `${file}: ${(busy / 1e6).toFixed(1)} s busy, ${(idle / 1e6).toFixed(1)} s idle${lastSeconds === undefined ? '' : ` (last ${lastSeconds} s)`}`,
  );
  table('package', byPackage);
  table('function', byFunction);
  table('native function ← its JavaScript caller', nativeByCaller);
}

main();
