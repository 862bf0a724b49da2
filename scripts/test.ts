/**
 * `npm test`: the whole suite, in the order that fails fastest —
 * typecheck, lint (ESLint, then Prettier's check) and the console build side by side (each is
 * mostly one core's work), then unit + integration (vitest, real Postgres, the service started as
 * `npm start` starts it), OpenAPI lint, browser (Playwright).
 *
 * It needs nothing installed by hand: the Postgres server is chosen (or an
 * embedded one started) once here for every step (tests/support/test-postgres.ts),
 * and a missing browser stops the run before its first step, in one line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chooseChromium } from '@/e2e/browser';
import { provideTestPostgres } from '@/tests/support/test-postgres';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);
const tsx = (script: string) => [process.execPath, ['--import', 'tsx', script]] as const;

/** A step is a command; the steps of one group run side by side, and the next group waits for them all. */
type Step = [name: string, command: readonly [string, readonly string[]], then?: readonly [string, readonly string[]]];
const groups: Step[][] = [
  [
    ['typecheck', [bin('tsc'), ['--noEmit', '-p', '.']]],
    ['lint', [bin('eslint'), ['.']], [bin('prettier'), ['--check', '**/*.{ts,tsx,mjs}']]],
    ['console build', tsx('scripts/next-build.ts')],
  ],
  [['unit + integration (vitest)', [bin('vitest'), ['run']]]],
  [['OpenAPI lint (redocly)', tsx('scripts/openapi-lint.ts')]],
  [['browser (playwright)', [bin('playwright'), ['test']]]],
];

/** The steps running now, each with whether it leads a process group of its own. */
const running = new Map<ChildProcess, boolean>();

function stop(signal: NodeJS.Signals): void {
  for (const [child, grouped] of running) {
    try {
      if (grouped && child.pid) process.kill(-child.pid, signal);
      else child.kill(signal);
    } catch {
      // already gone
    }
  }
}
let interrupted: NodeJS.Signals | undefined;

/**
 * Runs a command. Alone it writes to this terminal; beside others its output is held and written
 * in one piece when it ends, so two steps' lines never interleave.
 */
function run([command, args]: readonly [string, readonly string[]], alone: boolean): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...(!alone && process.stdout.isTTY ? { FORCE_COLOR: '1' } : {}) };
    // Beside others, a step runs in a process group of its own, so stopping it stops what it started
    // too (the console build's `next build`); alone it stays in the terminal's group, for Ctrl-C.
    const child = spawn(command, args, { cwd: root, stdio: alone ? 'inherit' : ['ignore', 'pipe', 'pipe'], env, detached: !alone });
    running.set(child, !alone);
    const chunks: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk));
    const done = (code: number) => {
      running.delete(child);
      resolve({ code, output: Buffer.concat(chunks).toString() });
    };
    child.once('error', () => done(1));
    child.once('close', (code) => done(code ?? 1));
  });
}

async function runStep([name, command, then]: Step, alone: boolean): Promise<number> {
  const started = Date.now();
  if (alone) process.stdout.write(`\n▶ ${name}\n`);
  let { code, output } = await run(command, alone);
  if (code === 0 && then && !interrupted) {
    const next = await run(then, alone);
    code = next.code;
    output += next.output;
  }
  if (!alone) process.stdout.write(`\n▶ ${name}\n${output}`);
  process.stdout.write(`${code === 0 ? '✔' : '✘'} ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  // The first failure ends the group: its other steps are stopped rather than waited for.
  if (code !== 0) stop('SIGTERM');
  return code;
}

const only = process.argv.slice(2);
const selected = groups
  .map((group) => group.filter(([name]) => !only.length || only.some((o) => name.toLowerCase().includes(o.toLowerCase()))))
  .filter((group) => group.length > 0);
const names = selected.flat().map(([name]) => name);

// Child processes run on this Node: npm puts the project's (node_modules/.bin/node) first on PATH.
process.stdout.write(`Node ${process.version} (${process.execPath})\n`);

if (names.some((name) => name.startsWith('browser'))) {
  const browser = chooseChromium();
  if ('missing' in browser) {
    process.stderr.write(`${browser.missing}\n`);
    process.exit(1);
  }
}

const needsPostgres = names.some((name) => /vitest|playwright/.test(name));
const pg = needsPostgres ? await provideTestPostgres() : undefined;

// Ctrl-C reaches a step running alone too (same terminal group); steps side by side, and any step
// when the signal goes to npm alone, get it from here. Either way every step is asked to stop, and
// the embedded Postgres is stopped after it.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    interrupted ??= signal;
    stop(signal);
  });
}

let code = 0;
for (const group of selected) {
  const codes = await Promise.all(group.map((step) => runStep(step, group.length === 1)));
  code = codes.find((c) => c !== 0) ?? 0;
  if (code !== 0 || interrupted) break;
}
await pg?.stop();
process.exit(interrupted ? (interrupted === 'SIGINT' ? 130 : 143) : code);
