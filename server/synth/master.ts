import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { AUDIO_MIME_TYPES, type AudioFormat } from '@/domain/statuses';
import { FairQueue } from '@/server/fair-queue';
import { parseWav } from './audio';
import { ffmpegBinary, FfmpegFailure, parseEbur128Summary, runFfmpeg, type LoudnessMeasurement } from './ffmpeg';
import { synthesisFailure, type SynthesisErrorCode } from './types';

/**
 * Mastering: whatever a provider returned (WAV or MP3, any rate, mono or stereo) becomes a
 * broadcast-ready creative — mono, 44.1 kHz, −16 LUFS integrated, true peak ≤ −1 dBTP (ITU-R
 * BS.1770 / EBU R128, as Apple Podcasts asks) — in two renditions: MP3 (CBR 128 kbit/s, what
 * podcast hosts ingest) and WAV (16-bit PCM). Both are measured as delivered.
 *
 * How: measure the input, apply the gain that brings it to the target, limit the peaks in the 4×
 * oversampled signal (a true-peak limiter: inter-sample peaks become samples there), encode both
 * renditions from that one signal, then measure each rendition as decoded. MP3 encoding changes
 * loudness (here ~0.4–0.5 LU quieter) and peaks a little, so the first render aims a little above the
 * target, and the gain is corrected from what the renditions measure and the render repeated
 * until both sit within ±0.3 LU of the target with true peaks ≤ −1.2 dBTP — inside the promised
 * ±1 LU / −1 dBTP. Every ffmpeg run costs a process start, so each step measures what it can in
 * one run: a speech clip usually takes three (the input, the render, both renditions).
 */

export const TARGET_LUFS = -16;
export const SAMPLE_RATE = 44_100;
export const MP3_BITRATE_KBPS = 128;
/** The limiter's ceiling; the renditions' true peaks must then measure at most ACCEPT_PEAK. */
const LIMITER_CEILING_DBTP = -1.5;
const ACCEPT_PEAK_DBTP = -1.2;
const ACCEPT_LU = 0.3;
const MAX_RENDERS = 4;
/**
 * The first render aims this far above the target: the MP3 measures ~0.4–0.5 LU under the WAV, so
 * both then land inside ±ACCEPT_LU and one render is usually enough (the loop corrects the rest).
 */
const FIRST_RENDER_LIFT_DB = 0.25;
/** BS.1770 gates 400 ms blocks: a clip with none is measured looped SHORT_CLIP_LOOPS times. */
const BLOCK_MS = 400;
const SHORT_CLIP_LOOPS = 4;

export interface Rendition {
  format: AudioFormat;
  mimeType: string;
  bytes: Buffer;
  loudnessLufs: number;
  truePeakDbtp: number;
}

export interface MasteredAudio {
  /** MP3 first: the default rendition. */
  renditions: Rendition[];
  durationMs: number;
  sampleRate: number;
  channels: number;
}

function fail(code: SynthesisErrorCode, retryable: boolean, message: string, cause?: unknown): never {
  throw synthesisFailure(`mastering: ${message}`, { code, retryable, cause });
}

/**
 * At most one mastering per core at a time in a process: ffmpeg is CPU-bound, and the worker runs
 * many synthesis jobs at once. Networks waiting for a core are served in turn (server/fair-queue.ts),
 * so one network's backlog of creatives delays another's by at most one mastering per core.
 */
const cores = new FairQueue({ concurrency: Math.max(1, availableParallelism()) });

/**
 * Whether a rendition's integrated loudness is within ±ACCEPT_LU of the target. ffmpeg prints
 * tenths, and −16.3 − (−16) is 0.30000000000000071 in binary floating point: hence the allowance.
 */
export const nearTarget = (lufs: number): boolean => Math.abs(lufs - TARGET_LUFS) <= ACCEPT_LU + 1e-9;

/**
 * How much louder the renditions came out per dB of gain between two renders: 1 while the limiter
 * leaves the level alone, less as it takes more of the peaks (a voice that peaks at full scale
 * gains ~0.5 LU per dB at −16 LUFS). The next gain is a secant step with it; with steps of 1 LU
 * per dB, such a voice took all MAX_RENDERS renders and could end outside ±ACCEPT_LU. Kept within
 * [0.2, 1]: the measurements are in tenths, so two close renders can give any ratio.
 */
export function loudnessPerDb(a: { gainDb: number; level: number }, b: { gainDb: number; level: number }): number {
  const dGain = b.gainDb - a.gainDb;
  if (Math.abs(dGain) < 0.05) return 1;
  return Math.min(1, Math.max(0.2, (b.level - a.level) / dGain));
}

/** A WAV's length from its header, or undefined for anything else (an MP3's needs decoding). */
function wavDurationMs(audio: Buffer): number | undefined {
  try {
    return parseWav(audio).durationMs;
  } catch {
    return undefined;
  }
}

const MONO_44K = `aformat=channel_layouts=mono,aresample=${SAMPLE_RATE}`;

export interface LoudnessInput {
  path: string;
  /** Its length when known (a WAV's header says it): under one BS.1770 block it is measured looped at once. */
  durationMs?: number;
}

/**
 * Integrated loudness and true peak of a mono 44.1 kHz reading of each file, all in one ffmpeg run
 * (each run of Debian's ffmpeg spends ~0.15 s loading its libraries before it reads a byte).
 * BS.1770 gates 400 ms blocks, so a clip with none is measured looped: at once when its length is
 * known to be under a block, else in a second run for the files the first found nothing in.
 */
export async function measureLoudness(ffmpeg: string, inputs: readonly LoudnessInput[], signal?: AbortSignal): Promise<LoudnessMeasurement[]> {
  const scan = async (files: ReadonlyArray<{ path: string; looped: boolean }>) => {
    const args = files.flatMap((f) => [...(f.looped ? ['-stream_loop', String(SHORT_CLIP_LOOPS - 1)] : []), '-i', f.path]);
    const graph = files.map((_, i) => `[${i}:a]${MONO_44K},ebur128@m${i}=peak=true:framelog=verbose[m${i}]`).join(';');
    const outputs = files.flatMap((_, i) => ['-map', `[m${i}]`, '-f', 'null', '-']);
    const stderr = await runFfmpeg(ffmpeg, [...args, '-filter_complex', graph, ...outputs], { signal });
    return files.map((_, i) => parseEbur128Summary(stderr, `m${i}`));
  };
  const short = inputs.map((input) => input.durationMs !== undefined && input.durationMs < BLOCK_MS);
  const measured = await scan(inputs.map((input, i) => ({ path: input.path, looped: short[i]! })));
  const again = inputs.flatMap((_, i) => (!short[i] && measured[i]!.integratedLufs === undefined ? [i] : []));
  if (again.length > 0) {
    const looped = await scan(again.map((i) => ({ path: inputs[i]!.path, looped: true })));
    again.forEach((i, j) => (measured[i] = looped[j]!));
  }
  return measured;
}

/** What each rendition is: mono at SAMPLE_RATE, with no metadata and no encoder tag that varies by build. */
const EVERY_RENDITION = ['-ar', String(SAMPLE_RATE), '-ac', '1', '-map_metadata', '-1', '-fflags', '+bitexact'];

async function render(ffmpeg: string, input: string, dir: string, gainDb: number, ceilingDbtp: number, signal?: AbortSignal) {
  const oversampled = SAMPLE_RATE * 4;
  const limit = Math.pow(10, ceilingDbtp / 20).toFixed(5);
  const chain =
    `[0:a]${MONO_44K},volume=${gainDb.toFixed(2)}dB,aresample=${oversampled},` +
    `alimiter=limit=${limit}:attack=2:release=40:level=0,aresample=${SAMPLE_RATE},asplit=2[wav][mp3]`;
  const files = { wav: path.join(dir, 'out.wav'), mp3: path.join(dir, 'out.mp3') };
  await runFfmpeg(
    ffmpeg,
    [
      '-y',
      '-i',
      input,
      '-filter_complex',
      chain,
      ...['-map', '[wav]', '-c:a', 'pcm_s16le', ...EVERY_RENDITION, files.wav],
      ...['-map', '[mp3]', '-c:a', 'libmp3lame', '-b:a', `${MP3_BITRATE_KBPS}k`, ...EVERY_RENDITION, '-id3v2_version', '0', files.mp3],
    ],
    { signal },
  );
  return files;
}

/**
 * Masters `audio` (the bytes a provider returned). Throws `SynthesisError`: `invalid_audio`
 * (permanent) when the input cannot be decoded, `silent_audio` (permanent) when it holds no
 * measurable sound, `cancelled` when `signal` aborts, `engine_error` (retryable) otherwise.
 */
export async function masterAudio(audio: Buffer, options: { signal?: AbortSignal; networkId?: string } = {}): Promise<MasteredAudio> {
  const { signal } = options;
  let ffmpeg: string;
  try {
    ffmpeg = (await ffmpegBinary()).path;
  } catch (error) {
    fail('engine_error', true, (error as Error).message, error);
  }
  return cores.run(options.networkId ?? '', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'creative-'));
    try {
      const input = path.join(dir, 'input');
      await writeFile(input, audio);
      const step = async <T>(what: string, work: () => Promise<T>, permanent?: SynthesisErrorCode): Promise<T> => {
        try {
          return await work();
        } catch (error) {
          if (signal?.aborted || (error instanceof FfmpegFailure && error.aborted)) fail('cancelled', true, `${what}: cancelled`, error);
          if (permanent) fail(permanent, false, `${what}: ${(error as Error).message}`, error);
          fail('engine_error', true, `${what}: ${(error as Error).message}`, error);
        }
      };

      const [before] = await step(
        'measuring the input',
        () => measureLoudness(ffmpeg, [{ path: input, durationMs: wavDurationMs(audio) }], signal),
        'invalid_audio',
      );
      if (before!.integratedLufs === undefined) fail('silent_audio', false, 'the input has no measurable loudness (silent)');

      let gainDb = TARGET_LUFS - before!.integratedLufs + FIRST_RENDER_LIFT_DB;
      let ceiling = LIMITER_CEILING_DBTP;
      let previous: { gainDb: number; level: number } | undefined;
      let last: { wav: Buffer; mp3: Buffer; durationMs: number; wavLoudness: LoudnessMeasurement; mp3Loudness: LoudnessMeasurement } | undefined;
      for (let attempt = 1; attempt <= MAX_RENDERS; attempt++) {
        const files = await step('rendering', () => render(ffmpeg, input, dir, gainDb, ceiling, signal));
        const wav = await readFile(files.wav);
        // The MP3 holds the same signal (and the encoder's few ms of padding): the WAV's length is its length.
        const durationMs = parseWav(wav).durationMs;
        const [wavLoudness, mp3Loudness] = (await step('measuring the renditions', () =>
          measureLoudness(
            ffmpeg,
            [
              { path: files.wav, durationMs },
              { path: files.mp3, durationMs },
            ],
            signal,
          ),
        )) as [LoudnessMeasurement, LoudnessMeasurement];
        last = { wav, mp3: await readFile(files.mp3), durationMs, wavLoudness, mp3Loudness };
        const levels = [wavLoudness, mp3Loudness].map((m) => m.integratedLufs ?? -Infinity);
        const peaks = [wavLoudness, mp3Loudness].map((m) => m.truePeakDbtp ?? -Infinity);
        const loudEnough = levels.every(nearTarget);
        const peaksOk = peaks.every((p) => p <= ACCEPT_PEAK_DBTP);
        if (loudEnough && peaksOk) break;
        const level = (levels[0]! + levels[1]!) / 2;
        const slope = previous === undefined ? 1 : loudnessPerDb(previous, { gainDb, level });
        if (peaksOk) previous = { gainDb, level };
        else {
          ceiling -= 0.5; // a new ceiling is a new curve: its slope is measured afresh
          previous = undefined;
        }
        gainDb += (TARGET_LUFS - level) / slope;
      }
      const { wav, mp3, durationMs, wavLoudness, mp3Loudness } = last!;
      const within = (m: LoudnessMeasurement) =>
        m.integratedLufs !== undefined && m.truePeakDbtp !== undefined && Math.abs(m.integratedLufs - TARGET_LUFS) <= 1 && m.truePeakDbtp <= -1;
      if (!within(wavLoudness) || !within(mp3Loudness)) {
        fail(
          'engine_error',
          true,
          `could not reach ${TARGET_LUFS} LUFS / -1 dBTP: wav ${JSON.stringify(wavLoudness)}, mp3 ${JSON.stringify(mp3Loudness)}`,
        );
      }
      const rendition = (format: AudioFormat, bytes: Buffer, m: LoudnessMeasurement): Rendition => ({
        format,
        mimeType: AUDIO_MIME_TYPES[format],
        bytes,
        loudnessLufs: m.integratedLufs!,
        truePeakDbtp: m.truePeakDbtp!,
      });
      return {
        renditions: [rendition('mp3', mp3, mp3Loudness), rendition('wav', wav, wavLoudness)],
        durationMs,
        sampleRate: SAMPLE_RATE,
        channels: 1,
      };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
}
