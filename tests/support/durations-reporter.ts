import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints, when a run ends, how long each test file took — importing it and running its tests and
 * hooks — slowest first, and the sum, so a CI log says where the suite's time goes (and which file
 * grew). vitest.config.ts enables it in CI and when TEST_DURATIONS=1.
 */
export default class DurationsReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const rows = modules
      .map((module) => {
        const d = module.diagnostic();
        const importing = d.environmentSetupDuration + d.prepareDuration + d.setupDuration + d.collectDuration;
        return { file: path.relative(process.cwd(), module.moduleId), importing, running: d.duration };
      })
      .sort((a, b) => b.importing + b.running - (a.importing + a.running));
    if (rows.length === 0) return;
    const seconds = (ms: number) => (ms / 1000).toFixed(1).padStart(6);
    const sum = (pick: (row: (typeof rows)[number]) => number) => rows.reduce((total, row) => total + pick(row), 0);
    const line = (total: number, importing: number, running: number, what: string) =>
      `${seconds(total)} ${seconds(importing)} ${seconds(running)}  ${what}`;
    process.stdout.write(
      `\nSeconds per test file, slowest first (total = importing it + its tests and hooks):\n` +
        ` total import  tests  file\n` +
        rows.map((row) => `${line(row.importing + row.running, row.importing, row.running, row.file)}\n`).join('') +
        `${line(
          sum((r) => r.importing + r.running),
          sum((r) => r.importing),
          sum((r) => r.running),
          `all ${rows.length} files`,
        )}\n`,
    );
  }
}
