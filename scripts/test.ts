/**
 * `npm test`: the whole suite, in the order that fails fastest —
 * typecheck, lint (ESLint, then Prettier's check), console build, unit + integration (vitest, real Postgres,
 * the service started as `npm start` starts it), OpenAPI lint, browser (Playwright).
 *
 * It needs nothing installed by hand: the Postgres server is chosen (or an
 * embedded one started) once here for every step (tests/support/test-postgres.ts),
 * and a missing browser stops the run before its first step, in one line.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chooseChromium } from '@/e2e/browser';
import { provideTestPostgres } from '@/tests/support/test-postgres';
import { ensureNextBuild } from './next-build';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);

const steps: Array<[string, () => Promise<number>]> = [
  ['typecheck', () => run(bin('tsc'), ['--noEmit', '-p', '.'])],
  ['lint', async () => (await run(bin('eslint'), ['.'])) || run(bin('prettier'), ['--check', '**/*.{ts,tsx,mjs}'])],
  [
    'console build',
    async () => {
      ensureNextBuild(root);
      return 0;
    },
  ],
  ['unit + integration (vitest)', () => run(bin('vitest'), ['run'])],
  ['OpenAPI lint (redocly)', () => run(process.execPath, ['--import', 'tsx', 'scripts/openapi-lint.ts'])],
  ['browser (playwright)', () => run(bin('playwright'), ['test'])],
];

let current: ReturnType<typeof spawn> | undefined;
let interrupted: NodeJS.Signals | undefined;

function run(command: string, args: string[]): Promise<number> {
  return new Promise((resolve) => {
    current = spawn(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
    current.once('error', () => resolve(1));
    current.once('exit', (code) => resolve(code ?? 1));
  });
}

const only = process.argv.slice(2);
const selected = steps.filter(([name]) => !only.length || only.some((o) => name.toLowerCase().includes(o.toLowerCase())));

// Child processes run on this Node: npm puts the project's (node_modules/.bin/node) first on PATH.
process.stdout.write(`Node ${process.version} (${process.execPath})\n`);

if (selected.some(([name]) => name.startsWith('browser'))) {
  const browser = chooseChromium();
  if ('missing' in browser) {
    process.stderr.write(`${browser.missing}\n`);
    process.exit(1);
  }
}

const needsPostgres = selected.some(([name]) => /vitest|playwright/.test(name));
const pg = needsPostgres ? await provideTestPostgres() : undefined;

// Ctrl-C reaches the running step too (same terminal group); a signal to npm alone comes here
// only. Either way the step is asked to stop, and the embedded Postgres is stopped after it.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    interrupted ??= signal;
    current?.kill(signal);
  });
}

let code = 0;
for (const [name, step] of selected) {
  const started = Date.now();
  process.stdout.write(`\n▶ ${name}\n`);
  code = await step();
  process.stdout.write(`${code === 0 ? '✔' : '✘'} ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  if (code !== 0 || interrupted) break;
}
await pg?.stop();
process.exit(interrupted ? (interrupted === 'SIGINT' ? 130 : 143) : code);
