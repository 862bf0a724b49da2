import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/** Debian installs both daemons under /usr/sbin, which a normal user's PATH often lacks. */
const SEARCHED = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/usr/local/sbin', '/sbin'];

/** The path of an executable, or undefined. */
export function findExecutable(name: string): string | undefined {
  for (const dir of SEARCHED) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * HAProxy and PgBouncer, or one sentence naming what to install: `npm run cluster` installs
 * nothing at run time.
 */
export function clusterBinaries(): { haproxy: string; pgbouncer: string } | { missing: string } {
  const haproxy = findExecutable('haproxy');
  const pgbouncer = findExecutable('pgbouncer');
  if (haproxy && pgbouncer) return { haproxy, pgbouncer };
  const absent = [haproxy ? undefined : 'haproxy', pgbouncer ? undefined : 'pgbouncer'].filter(Boolean).join(' and ');
  return {
    missing:
      `npm run cluster needs ${absent}, which this machine lacks. Install the Debian/Ubuntu package${absent.includes(' and ') ? 's' : ''}: ` +
      `sudo apt-get install ${absent.replace(' and ', ' ')} (elsewhere: your system's ${absent} package).`,
  };
}
