/**
 * `npm run cli -- <command>`: operator commands.
 *   create-key --super-user --name NAME   print a new super_user token (alone on stdout)
 */
import { parseArgs } from 'node:util';
import { closeDatabase, openDatabase } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';
import { loadConfig, setConfig } from '@/server/config';
import { logger } from '@/server/logger';
import { resolveDatabase } from './runtime';
import { createSuperUserKey } from '@/server/services/keys/bootstrap';

const USAGE = 'Usage: npm run cli -- create-key --super-user --name NAME';

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { 'super-user': { type: 'boolean' }, name: { type: 'string' }, help: { type: 'boolean' } },
  });
  if (values.help || positionals[0] !== 'create-key') {
    process.stderr.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  if (!values['super-user']) {
    process.stderr.write('Only --super-user keys are created here; other keys are minted through the API.\n' + USAGE + '\n');
    return 2;
  }
  const name = values.name?.trim();
  if (!name) {
    process.stderr.write(`--name is required.\n${USAGE}\n`);
    return 2;
  }
  const config = loadConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' });
  setConfig(config);
  logger.level = config.LOG_LEVEL; // warn unless asked: stdout carries the token alone
  // Beside a running `npm start`, its embedded Postgres is shared rather than started a second time.
  const { url, embedded } = await resolveDatabase(config, { shareRunning: true });
  try {
    await migrateDatabase(url);
    const { db } = openDatabase(url, { max: 1 });
    const token = await createSuperUserKey({ db, name });
    process.stdout.write(`${token}\n`);
    return 0;
  } finally {
    await closeDatabase();
    await embedded?.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`cli failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
