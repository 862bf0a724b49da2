/**
 * `npm run test:reliability`: runs the fault, race, fuzz and security tests
 * (vitest.reliability.config.ts) against real Postgres and the service started
 * as users start it, then rewrites docs/RELIABILITY.md from what they measured
 * (test-results/reliability/*.json, see tests/support/reliability.ts).
 *
 * Everything above REPORT_MARKER in the report is regenerated; the findings
 * below it are hand-written and carried over. A failing run still prints what
 * was measured, but leaves the report alone.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { provideTestPostgres } from '@/tests/support/test-postgres';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const resultsDir = path.join(root, 'test-results', 'reliability');
const reportPath = path.join(root, 'docs', 'RELIABILITY.md');
const REPORT_MARKER = '<!-- Everything above is written by `npm run test:reliability`; findings below are kept. -->';

interface Result {
  id: string;
  claim: string;
  figures: Record<string, string | number>;
  at: string;
}

async function postgresVersion(adminUrl: string): Promise<string> {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<{ server_version: string }[]>`show server_version`;
    return row!.server_version;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

function readResults(): Result[] {
  if (!existsSync(resultsDir)) return [];
  return readdirSync(resultsDir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(path.join(resultsDir, f), 'utf8')) as Result)
    .sort((a, b) => a.id.localeCompare(b.id));
}

function render(results: Result[], seconds: number, pg: string): string {
  const lines = [
    '# Reliability',
    '',
    'Races, faults, fuzzing and tenant isolation, measured by `npm run test:reliability` against real',
    'Postgres and the service started as users start it. Regenerate with that command.',
    '',
    `Machine: ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, Postgres ${pg}. ` +
      `Run finished ${new Date().toISOString()} in ${Math.round(seconds)} s; every test below passed.`,
    '',
    '| test | claim | measured |',
    '|---|---|---|',
    ...results.map(
      (r) =>
        `| \`${r.id}\` | ${r.claim} | ${Object.entries(r.figures)
          .map(([k, v]) => `${k}: **${v}**`)
          .join('; ')} |`,
    ),
    '',
    REPORT_MARKER,
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  rmSync(resultsDir, { recursive: true, force: true });
  // One Postgres server for the whole run (an embedded one when the machine has none).
  const pg = await provideTestPostgres();
  try {
    await runAndReport(pg.adminUrl);
  } finally {
    await pg.stop();
  }
}

async function runAndReport(adminUrl: string): Promise<void> {
  const started = Date.now();
  const run = spawnSync(
    path.join(root, 'node_modules', '.bin', 'vitest'),
    ['run', '--config', 'vitest.reliability.config.ts', ...process.argv.slice(2)],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  const results = readResults();
  for (const r of results) process.stdout.write(`${r.id}: ${r.claim} — ${JSON.stringify(r.figures)}\n`);
  if (run.status !== 0) {
    process.stderr.write('Reliability tests failed: docs/RELIABILITY.md left as it was.\n');
    process.exitCode = run.status ?? 1;
    return;
  }
  if (process.argv.length > 2) {
    process.stdout.write('A subset was run: docs/RELIABILITY.md left as it was.\n');
    return;
  }
  const kept = existsSync(reportPath) ? (readFileSync(reportPath, 'utf8').split(REPORT_MARKER)[1] ?? '') : '\n';
  writeFileSync(reportPath, render(results, (Date.now() - started) / 1000, await postgresVersion(adminUrl)) + kept);
  process.stdout.write(`Wrote ${path.relative(root, reportPath)}\n`);
}

await main();
