import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startChild, type Child } from './child';

export interface HaproxyOptions {
  binary: string;
  dir: string;
  host: string;
  port: number;
  /** The web processes' ports on 127.0.0.1. */
  webPorts: number[];
  /** HAProxy's own status page (each web process UP or DOWN, and since when), on 127.0.0.1. */
  statsPort: number;
}

/** How often HAProxy checks each web process, and after how many failures it stops sending to it. */
export const CHECK_INTERVAL_MS = 1_000;
export const CHECK_FALL = 2;

/**
 * HAProxy in front of the web processes: round robin over those whose `GET /healthz` answers
 * 200 (checked every second; two failures take a process out, two successes bring it back).
 * A request whose connection to a process fails is sent to another one (nothing reached the
 * dead process, so nothing can run twice); a request already sent is never retried by HAProxy —
 * a client retries a POST with its Idempotency-Key. `X-Forwarded-For` names the client; the web
 * processes believe it from 127.0.0.1 only (TRUSTED_PROXIES), for the per-address lockout.
 */
export function startHaproxy(options: HaproxyOptions): Child {
  const servers = options.webPorts.map((port, i) => `  server web${i + 1} 127.0.0.1:${port} check`);
  const config = [
    'global',
    '  maxconn 4096',
    '  log stdout format raw local0 notice',
    '',
    'defaults',
    '  mode http',
    '  log global',
    '  option dontlognull',
    '  timeout connect 2s',
    // The longest request: a webhook test or voice preview waits on the outside world (15 s time-outs).
    '  timeout client 65s',
    '  timeout server 65s',
    '  timeout http-keep-alive 60s',
    // A check's answer may take this long (a loaded machine); a dead process refuses at once.
    '  timeout check 3s',
    '  option forwardfor',
    '  retries 2',
    '  option redispatch',
    '  retry-on conn-failure',
    '',
    'frontend api',
    `  bind ${options.host.includes(':') ? `[${options.host}]` : options.host}:${options.port}`,
    '  default_backend web',
    '',
    'listen stats',
    `  bind 127.0.0.1:${options.statsPort}`,
    '  stats enable',
    '  stats uri /',
    '  stats refresh 2s',
    '',
    'backend web',
    '  balance roundrobin',
    '  option httpchk GET /healthz',
    '  http-check expect status 200',
    `  default-server inter ${CHECK_INTERVAL_MS}ms fall ${CHECK_FALL} rise 2 on-marked-down shutdown-sessions`,
    ...servers,
    '',
  ].join('\n');
  const file = path.join(options.dir, 'haproxy.cfg');
  writeFileSync(file, config);
  // -db: stay in the foreground, logs to stdout; -W would fork a master.
  return startChild('haproxy', options.binary, ['-db', '-f', file]);
}
