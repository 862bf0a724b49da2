import { z } from 'zod';
import { CONSOLE_BATCH_ITEMS } from './http/console-batch';

export const NETWORK_SHARE_RULE = 'must be a fraction of the slots between 0 and 1 (0.25: a quarter) or a whole number of slots (5)';

/**
 * WORKER_NETWORK_SHARE: below 1 a fraction of a pool's slots, otherwise a whole number of slots.
 * (1 is one slot, not all of them: to let a network take every slot, give the pool's size.)
 */
export function parseNetworkShare(value: string): number | undefined {
  const trimmed = value.trim();
  if (!/^\d+(\.\d+)?$|^\.\d+$/.test(trimmed)) return undefined;
  const share = Number(trimmed);
  if (share <= 0) return undefined;
  if (share < 1) return share;
  return Number.isInteger(share) ? share : undefined;
}

/** WEBHOOK_RETRY_SCHEDULE: seconds before each retry, comma separated (`0,5,300`). */
export function parseRetrySchedule(value: string): number[] | undefined {
  const parsed = value.split(',').map((v) => (v.trim() === '' ? Number.NaN : Number(v.trim())));
  return parsed.every((n) => Number.isFinite(n) && n >= 0) ? parsed : undefined;
}

/** SYNTH_VOICE_MAP: a JSON object whose values are non-empty strings. */
export function parseVoiceMap(value: string): Record<string, string> | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const entries = Object.entries(parsed);
  return entries.every(([, v]) => typeof v === 'string' && v.length > 0) ? Object.fromEntries(entries as [string, string][]) : undefined;
}

/** A setting that may be left out: blank counts as unset. */
const optionalText = z
  .string()
  .optional()
  .transform((value) => value?.trim() || undefined);

/**
 * Every setting the service reads from the environment, parsed once: no other module reads
 * `process.env` for a setting, and a value that does not parse stops the start with its name.
 * README.md lists the same variables; keep the two in step.
 */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.string().url().optional(),
  DATABASE_URL: z.string().optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).default(10),
  // Off behind a transaction-pooling PgBouncer older than 1.21 (db/client.ts connect()).
  DATABASE_PREPARED_STATEMENTS: z.enum(['on', 'off']).default('on'),
  // A connection that keeps its session (direct, or a session-mode pooler), for migrations' session lock. Default: DATABASE_URL.
  DATABASE_DIRECT_URL: z.string().optional(),
  DATA_DIR: z.string().default('.data'),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  APP_ENV: z.enum(['test', 'live']).default('test'),
  APP_SECRET_KEY: z.string().min(32).optional(),
  ERROR_BASE_URL: z.string().url().optional(),
  BOOTSTRAP_SUPERUSER_TOKEN: z.string().optional(),
  WORKER: z.enum(['on', 'off']).default('on'),
  // Off: Next is not loaded; /v1, /api/trpc and /healthz answer, pages and /docs are 404 (scripts/start.ts).
  CONSOLE: z.enum(['on', 'off']).default('on'),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).default(20),
  // Synthesis has slots of its own, so deliveries and creatives never wait for each other (jobs/worker.ts).
  WORKER_SYNTHESIS_CONCURRENCY: z.coerce.number().int().min(1).default(20),
  // Most of a pool's slots one network may hold (server/services/network-share.ts).
  WORKER_NETWORK_SHARE: z
    .string()
    .default('0.25')
    .transform((value, ctx) => {
      const share = parseNetworkShare(value);
      if (share === undefined) ctx.addIssue({ code: 'custom', message: NETWORK_SHARE_RULE });
      return share ?? 0;
    }),
  // Previews per network and process (server/services/creatives/preview-admission.ts).
  PREVIEW_CONCURRENCY_PER_NETWORK: z.coerce.number().int().min(1).max(64).default(2),
  PREVIEW_QUEUE_PER_NETWORK: z.coerce.number().int().min(0).max(1000).default(4),
  REDIS_URL: z.string().optional(),
  RATE_LIMIT_PER_SECOND: z.coerce.number().positive().default(100),
  RATE_LIMIT_BURST: z.coerce.number().int().positive().default(200),
  AUTH_FAILURE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(30),
  // Above every key's own bucket (server/http/request-budget.ts): what all keys of one person or
  // service account share, and what all requests on one network share, so minting keys adds none.
  RATE_LIMIT_OWNER_PER_SECOND: z.coerce.number().positive().default(200),
  RATE_LIMIT_OWNER_BURST: z.coerce.number().int().positive().default(400),
  RATE_LIMIT_NETWORK_PER_SECOND: z.coerce.number().positive().default(500),
  RATE_LIMIT_NETWORK_BURST: z.coerce.number().int().positive().default(1000),
  // Refusals are paced (server/http/refusal-pacing.ts): a 429 waits its turn in its bucket's line, at
  // most this long; at most this many answers held at once per process; 0 ms answers at once.
  REFUSAL_HOLD_MS: z.coerce.number().int().min(0).max(10_000).default(1_000),
  REFUSAL_HOLD_MAX: z.coerce.number().int().min(0).default(1_000),
  // Calls in one /api/trpc request; at least the console's own batches (CONSOLE_BATCH_ITEMS).
  CONSOLE_MAX_BATCH_SIZE: z.coerce.number().int().min(CONSOLE_BATCH_ITEMS).default(50),
  // Quotas, each checked inside the creating transaction (server/services/quotas.ts).
  QUOTA_WEBHOOKS_PER_NETWORK: z.coerce.number().int().positive().default(20),
  QUOTA_PENDING_INVITATIONS_PER_NETWORK: z.coerce.number().int().positive().default(100),
  QUOTA_PENDING_VOICE_CONSENTS_PER_NETWORK: z.coerce.number().int().positive().default(100),
  QUOTA_API_KEYS_PER_OWNER: z.coerce.number().int().positive().default(50),
  TRUSTED_PROXIES: z.string().optional(), // reverse proxies whose X-Forwarded-For names the client (server/http/client-address.ts)
  IDEMPOTENCY_TTL_HOURS: z.coerce.number().positive().default(24),
  // Webhook delivery (server/services/webhooks/): one attempt's time-out, the retry schedule (default:
  // retry-schedule.ts), attempts at once per subscription, days of failures before a subscription is
  // disabled, days a delivery is kept, and private targets (tests and local development only).
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value.trim() === '') return undefined;
      const schedule = parseRetrySchedule(value);
      if (!schedule) ctx.addIssue({ code: 'custom', message: 'must be seconds, comma separated (0,5,300)' });
      return schedule;
    }),
  WEBHOOK_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(8),
  WEBHOOK_AUTO_DISABLE_DAYS: z.coerce.number().positive().default(5),
  WEBHOOK_RETENTION_DAYS: z.coerce.number().positive().default(30),
  WEBHOOK_ALLOW_PRIVATE: z.enum(['0', '1']).default('0'),
  // Tracking URLs (server/services/tracking/, docs/measurement.md): hits are group-committed — a flush
  // every TRACKING_FLUSH_MS or every TRACKING_FLUSH_HITS hits, one transaction on a pool of its own;
  // past TRACKING_BUFFER_HITS waiting, 503. A source (IPv4 address or IPv6 /64) sending more than
  // TRACKING_SOURCE_DAILY_LIMIT hits to one network in a UTC day is flagged and that day's hits excluded.
  // Raw hits are kept TRACKING_RETENTION_DAYS days (at least 2: the rolling 24 hours reads yesterday's).
  TRACKING_FLUSH_MS: z.coerce.number().int().min(1).max(1_000).default(5),
  TRACKING_FLUSH_HITS: z.coerce.number().int().min(1).max(10_000).default(500),
  TRACKING_BUFFER_HITS: z.coerce.number().int().min(1).default(10_000),
  // The most of that buffer one network's hits may hold (a fraction): one network's flood leaves room for the others.
  TRACKING_NETWORK_SHARE: z.coerce.number().gt(0).max(1).default(0.5),
  TRACKING_DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(10).default(2),
  TRACKING_SOURCE_DAILY_LIMIT: z.coerce.number().int().min(1).default(1_000),
  TRACKING_RETENTION_DAYS: z.coerce.number().int().min(2).default(35),
  // Voice synthesis (server/synth/): the provider, and the `http` provider's vendor API (its base URL,
  // required with it; key; model; preset → voice id map, merged over the built-in one; one attempt's
  // time-out; retries within a call and their backoff). Synthesis job attempts before a creative is failed.
  SYNTH_PROVIDER: z
    .string()
    .default('local')
    .transform((value) => value.trim().toLowerCase() || 'local')
    .pipe(z.enum(['local', 'http'], { error: 'must be "local" or "http"' })),
  // Test networks (sandboxes) use the local engine and never call the vendor; under APP_ENV=test only,
  // `provider` lets them use SYNTH_PROVIDER (a vendor's sandbox account, or the fake vendor of the tests).
  SYNTH_TEST_NETWORKS: z.enum(['local', 'provider'], { error: 'must be "local" or "provider"' }).default('local'),
  SYNTH_BASE_URL: optionalText.pipe(z.url({ error: 'must be an absolute URL (https://api.example.com)' }).optional()),
  SYNTH_API_KEY: optionalText,
  SYNTH_MODEL_ID: optionalText,
  SYNTH_VOICE_MAP: optionalText.transform((value, ctx) => {
    if (value === undefined) return {};
    const map = parseVoiceMap(value);
    if (!map) ctx.addIssue({ code: 'custom', message: 'must be a JSON object of preset name → voice id ({"warm": "ErXwobaYiN019PkySvjV"})' });
    return map ?? {};
  }),
  SYNTH_TIMEOUT_MS: z.coerce.number().int().min(1).default(30_000),
  SYNTH_MAX_RETRIES: z.coerce.number().int().min(0).default(2),
  SYNTH_RETRY_BASE_MS: z.coerce.number().int().min(0).default(500),
  SYNTH_MAX_RETRY_DELAY_MS: z.coerce.number().int().min(0).default(10_000),
  SYNTH_JOB_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(5),
  // The ffmpeg that masters creatives; unset: `ffmpeg` on PATH, else the npm-bundled build (server/synth/ffmpeg.ts).
  FFMPEG_PATH: optionalText,
  // Outgoing mail (server/services/mail). Unset: the development mailbox, in test mode only.
  SMTP_URL: optionalText.pipe(
    z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL (smtps://user:password@mail.example.com:465)' }).optional(),
  ),
  MAIL_FROM: z
    .string()
    .regex(/^[^<>@\s]+@[^<>@\s]+$|^[^<>]*<[^<>@\s]+@[^<>@\s]+>$/, 'must be an address, or a name and <address> ("Ads <ads@example.com>")')
    .default('Ad Network Service <no-reply@localhost>'),
  // How long one SMTP exchange may take before the attempt fails and is retried.
  SMTP_TIMEOUT_MS: z.coerce.number().int().min(1).default(30_000),
  MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(10),
  // A console session (an email sign-in's key) lasts at most this long; 12 hours is also the most allowed.
  SESSION_LIFETIME_HOURS: z.coerce.number().int().min(1).max(12).default(12),
  // Sign-in links asked for per hour, per email address and per client address (each is a bucket).
  SIGN_IN_REQUESTS_PER_HOUR: z.coerce.number().int().min(1).default(10),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = z.infer<typeof envSchema> & {
  publicUrl: string;
  errorBaseUrl: string;
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  if (c.APP_ENV === 'live' && !c.APP_SECRET_KEY) {
    throw new Error('APP_SECRET_KEY is required when APP_ENV=live (at least 32 characters).');
  }
  if (c.APP_ENV === 'live' && c.WEBHOOK_ALLOW_PRIVATE === '1') {
    throw new Error('WEBHOOK_ALLOW_PRIVATE=1 is for tests and local development; it is refused with APP_ENV=live.');
  }
  if (c.APP_ENV === 'live' && !c.SMTP_URL) {
    throw new Error(
      'SMTP_URL is required when APP_ENV=live: invitation links reach people only by email (the development mailbox is for test mode).',
    );
  }
  if (c.APP_ENV === 'live' && c.SYNTH_TEST_NETWORKS === 'provider') {
    throw new Error('SYNTH_TEST_NETWORKS=provider is refused with APP_ENV=live: test networks never call the voice vendor there.');
  }
  if (c.SYNTH_PROVIDER === 'http' && !c.SYNTH_BASE_URL) {
    throw new Error('Invalid environment:\n  SYNTH_PROVIDER=http requires SYNTH_BASE_URL (e.g. https://api.example.com)');
  }
  const publicUrl = (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, '');
  return { ...c, publicUrl, errorBaseUrl: (c.ERROR_BASE_URL ?? `${publicUrl}/docs`).replace(/\/$/, '') };
}

let current: Config | undefined;

/** The process-wide configuration; tests may replace it with `setConfig`. */
export function config(): Config {
  current ??= loadConfig();
  return current;
}

/**
 * Makes `next` the process's configuration. The entry points (scripts/start.ts, worker.ts, cli.ts)
 * then set the logger's level from it: the logger exists before the configuration is parsed, and
 * this module stays free of it (the console bundles the schemas that import it).
 */
export function setConfig(next: Config): void {
  current = next;
}
