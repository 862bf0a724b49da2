/**
 * tests/support/test-postgres.ts: on a machine with no Postgres of its own, a
 * test run starts an embedded one in a temporary folder, and leaves nothing
 * behind however the run ends — also when it is killed outright.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/server-process';
import { until } from '@/tests/support/until';

/** Running (a zombie, exited but not yet reaped by whoever adopted it, is not). */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\S+ \(.*\) [ZX]/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

/** A test run of its own, in a child process: it provides the Postgres and then waits to be ended. */
function startRun() {
  const script = `
    import { provideTestPostgres } from ${JSON.stringify(path.join(ROOT, 'tests/support/test-postgres.ts'))};
    const pg = await provideTestPostgres({ ignoreLocal: true, log: () => {} });
    console.log(JSON.stringify({ adminUrl: pg.adminUrl, ...pg.embedded, env: process.env.TEST_DATABASE_ADMIN_URL }));
    process.on('SIGTERM', async () => { await pg.stop(); process.exit(0); });
    setInterval(() => {}, 1000);`;
  const env = { ...process.env };
  delete env.TEST_DATABASE_ADMIN_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = new Promise<{ adminUrl: string; pid: number; dataDir: string; env: string }>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!));
    });
    child.once('exit', (code) => reject(new Error(`the run exited with ${code} before its Postgres was ready`)));
  });
  return { child, ready };
}

describe('the embedded Postgres of a test run', () => {
  it('serves the run, is handed to its processes, and is stopped and removed when the run ends', { timeout: 90_000 }, async () => {
    const run = startRun();
    const pg = await run.ready;
    expect(pg.env).toBe(pg.adminUrl); // child processes of the run inherit it
    const sql = postgres(pg.adminUrl, { max: 1, onnotice: () => {} });
    try {
      await sql.unsafe('create database ans_embedded_probe');
      await sql.unsafe('drop database ans_embedded_probe');
    } finally {
      await sql.end({ timeout: 5 });
    }
    run.child.kill('SIGTERM');
    await until(() => (!alive(pg.pid) && !existsSync(pg.dataDir)) || undefined, 30_000);
  });

  it('is stopped and removed when the run is killed outright (SIGKILL)', { timeout: 90_000 }, async () => {
    const run = startRun();
    const pg = await run.ready;
    expect(alive(pg.pid)).toBe(true);
    run.child.kill('SIGKILL');
    await until(() => (!alive(pg.pid) && !existsSync(pg.dataDir)) || undefined, 45_000);
  });
});
