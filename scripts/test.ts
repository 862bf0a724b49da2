/**
 * `npm test`: the whole suite, in the order that fails fastest —
 * typecheck, lint, console build, unit + integration (vitest, real Postgres,
 * the service started as `npm start` starts it), OpenAPI lint, browser (Playwright).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureNextBuild } from './next-build';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);

const steps: Array<[string, () => number]> = [
  ['typecheck', () => run(bin('tsc'), ['--noEmit', '-p', '.'])],
  ['lint', () => run(bin('eslint'), ['.'])],
  [
    'console build',
    () => {
      ensureNextBuild(root);
      return 0;
    },
  ],
  ['unit + integration (vitest)', () => run(bin('vitest'), ['run'])],
  ['OpenAPI lint (redocly)', () => run(process.execPath, ['--import', 'tsx', 'scripts/openapi-lint.ts'])],
  ['browser (playwright)', () => run(bin('playwright'), ['test'])],
];

function run(command: string, args: string[]): number {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  return result.status ?? 1;
}

const only = process.argv.slice(2);
for (const [name, step] of steps) {
  if (only.length && !only.some((o) => name.toLowerCase().includes(o.toLowerCase()))) continue;
  const started = Date.now();
  process.stdout.write(`\n▶ ${name}\n`);
  const code = step();
  process.stdout.write(`${code === 0 ? '✔' : '✘'} ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  if (code !== 0) process.exit(code);
}
