import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import { getPriority, setPriority } from 'node:os';
import path from 'node:path';
import { config } from '@/server/config';
import type { SynthEnv } from './types';

/**
 * FFmpeg, the one tool the mastering of creatives runs (decode, resample, EBU R128 measurement,
 * limiting, MP3 encoding): docs/DECISIONS.md says why it and not a set of npm packages.
 *
 * Which binary: `FFMPEG_PATH` when set; else `ffmpeg` on PATH (Debian's `ffmpeg` package, kept
 * up to date by the distribution); else the static build that the npm package
 * `@ffmpeg-installer/ffmpeg` ships, so `npm install && npm start` needs nothing installed by hand.
 */

/** What mastering uses; a build without one of them is refused at start. */
const REQUIRED_FILTERS = ['aformat', 'aresample', 'asplit', 'volume', 'alimiter', 'ebur128'] as const;
const REQUIRED_ENCODERS = ['libmp3lame', 'pcm_s16le'] as const;

export const FFMPEG_MISSING_HELP =
  'Creatives are mastered with ffmpeg (loudness normalisation, MP3). Install it with the Debian package ' +
  '"ffmpeg" (apt-get install ffmpeg), or run `npm install` so that the bundled @ffmpeg-installer/ffmpeg ' +
  'binary is present, or set FFMPEG_PATH to an ffmpeg executable.';

export interface FfmpegBinary {
  path: string;
  /** Where it was found: FFMPEG_PATH, PATH or the npm package. */
  source: 'FFMPEG_PATH' | 'PATH' | '@ffmpeg-installer/ffmpeg';
  version: string;
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(env: SynthEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, process.platform === 'win32' ? 'ffmpeg.exe' : 'ffmpeg');
    if (executable(candidate)) return candidate;
  }
  return undefined;
}

function bundled(): string | undefined {
  try {
    // CommonJS; throws on a platform it has no binary for.
    const { path: file } = createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string };
    return executable(file) ? file : undefined;
  } catch {
    return undefined;
  }
}

function candidate(env: SynthEnv): Pick<FfmpegBinary, 'path' | 'source'> | undefined {
  const configured = env.FFMPEG_PATH?.trim();
  if (configured) return { path: configured, source: 'FFMPEG_PATH' };
  const system = onPath(env);
  if (system) return { path: system, source: 'PATH' };
  const npm = bundled();
  return npm ? { path: npm, source: '@ffmpeg-installer/ffmpeg' } : undefined;
}

export class FfmpegFailure extends Error {
  constructor(
    message: string,
    readonly stderr: string,
    readonly aborted: boolean,
  ) {
    super(message);
    this.name = 'FfmpegFailure';
  }
}

/** Runs ffmpeg with `args`; resolves with its stderr (where it reports), rejects with `FfmpegFailure`. */
export function runFfmpeg(binary: string, args: readonly string[], options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      binary,
      ['-hide_banner', '-nostdin', '-nostats', ...args],
      { signal: options.signal, timeout: options.timeoutMs ?? 120_000, maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' },
      (error, _stdout, stderr) => {
        if (!error) return resolve(stderr);
        const aborted = options.signal?.aborted === true || error.name === 'AbortError';
        // The last lines say why; the rest is the banner and stream list.
        const tail = stderr.trim().split('\n').slice(-3).join(' | ');
        reject(new FfmpegFailure(`ffmpeg failed (${error.message.split('\n')[0]}): ${tail}`, stderr, aborted));
      },
    );
    lowerPriority(child.pid);
  });
}

/**
 * Mastering is background work: ffmpeg runs 10 nice levels (FFMPEG_NICE) below the service, so that the
 * requests the same cores serve are not kept waiting while it encodes (docs/PERFORMANCE.md,
 * "Noisy neighbours"). Best effort: where the system refuses, it runs as it is.
 */
function lowerPriority(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    setPriority(pid, Math.min(19, getPriority(pid) + FFMPEG_NICE));
  } catch {
    // not permitted here: ffmpeg keeps the service's priority
  }
}

const FFMPEG_NICE = 10;

let located: Promise<FfmpegBinary> | undefined;

/**
 * The ffmpeg binary mastering uses, checked once per process (per call when tests pass an `env`): it must
 * run and have the filters and encoders above. Rejects with an Error that says what to install.
 */
export function ffmpegBinary(env?: SynthEnv): Promise<FfmpegBinary> {
  if (env) return locate(env);
  if (!located) {
    // FFMPEG_PATH as configured (server/config.ts); PATH is the system's.
    located = locate({ FFMPEG_PATH: config().FFMPEG_PATH, PATH: process.env.PATH });
    located.catch(() => (located = undefined)); // a later call (after an install) looks again
  }
  return located;
}

async function locate(env: SynthEnv): Promise<FfmpegBinary> {
  const found = candidate(env);
  if (!found) throw new Error(`ffmpeg was not found. ${FFMPEG_MISSING_HELP}`);
  let banner: string;
  let filters: string;
  let encoders: string;
  try {
    [banner, filters, encoders] = (await Promise.all(
      [['-version'], ['-filters'], ['-encoders']].map(
        (args) =>
          new Promise<string>((resolve, reject) =>
            execFile(found.path, ['-hide_banner', ...args], { timeout: 30_000, maxBuffer: 4 * 1024 * 1024 }, (error, stdout) =>
              error ? reject(error) : resolve(stdout),
            ),
          ),
      ),
    )) as [string, string, string];
  } catch (error) {
    throw new Error(`ffmpeg at ${found.path} (${found.source}) does not run: ${(error as Error).message.split('\n')[0]}. ${FFMPEG_MISSING_HELP}`);
  }
  const has = (list: string, name: string) => new RegExp(`^\\s*\\S+\\s+${name}\\s`, 'm').test(list);
  const missing = [...REQUIRED_FILTERS.filter((f) => !has(filters, f)), ...REQUIRED_ENCODERS.filter((e) => !has(encoders, e))];
  if (missing.length > 0) {
    throw new Error(`ffmpeg at ${found.path} (${found.source}) lacks ${missing.join(', ')}. ${FFMPEG_MISSING_HELP}`);
  }
  const version = /ffmpeg version (\S+)/.exec(banner)?.[1] ?? 'unknown';
  return { ...found, version };
}

export interface LoudnessMeasurement {
  /** Integrated loudness (LUFS), or undefined when no 400 ms block passes the gates (silence, or too short). */
  integratedLufs?: number;
  /** Maximum true peak (dBTP), or undefined for digital silence. */
  truePeakDbtp?: number;
}

/**
 * Reads the summary that the filter named `ebur128@<instance>` prints when it ends (one run can
 * measure several inputs, a named filter each: `measureLoudness` in master.ts).
 */
export function parseEbur128Summary(stderr: string, instance: string): LoudnessMeasurement {
  // ffmpeg may set its filter graph up more than once, and each set-up's filter prints a summary
  // as it ends (the first ones empty): the last one is the measurement.
  const at = [...stderr.matchAll(new RegExp(`^\\[ebur128@${instance} @ [^\\]]*\\] Summary:`, 'gm'))].at(-1)?.index;
  if (at === undefined) throw new Error(`ffmpeg printed no EBU R128 summary for ${instance}`);
  // The summary's own lines are indented; the next line that starts with "[" is another filter's.
  const next = stderr.indexOf('\n[', at);
  const summary = stderr.slice(at, next < 0 ? undefined : next);
  const integrated = /\bI:\s+(-?\d+(?:\.\d+)?|-inf) LUFS/.exec(summary)?.[1];
  const peak = /\bPeak:\s+(-?\d+(?:\.\d+)?|-inf) dBFS/.exec(summary)?.[1];
  if (integrated === undefined) throw new Error('the EBU R128 summary has no integrated loudness');
  const value = (text: string | undefined) => (text === undefined || text === '-inf' ? undefined : Number(text));
  // libebur128 (and ffmpeg's port) report -70 LUFS, the absolute gate, when nothing was gated in.
  const lufs = value(integrated);
  return { integratedLufs: lufs === undefined || lufs <= -70 ? undefined : lufs, truePeakDbtp: value(peak) };
}
