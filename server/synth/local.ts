import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { parseWav } from './audio';
import type { EngineReply, EngineRequest, EngineWorkerData } from '@/server/synth/local-engine.worker';
import { FairQueue } from '@/server/fair-queue';
import {
  isVoicePreset,
  synthesisFailure,
  type SynthesisErrorCode,
  type SynthesisOptions,
  type SynthesisProvider,
  type SynthesisRequest,
  type SynthesisResult,
  type VoicePreset,
} from './types';

/**
 * Provider `local`: offline speech from `mespeak` (eSpeak compiled to JavaScript; no native code,
 * no network). Output: 16-bit mono PCM WAV at 22.05 kHz.
 *
 * The engine runs in a worker thread, for two reasons:
 * - it is synchronous and CPU-bound (~50-150 ms per sentence), so it would block the event loop;
 * - one engine instance breaks on its 80th synthesis (its emscripten heap/file table runs out:
 *   "Bad data: en_dict", then a fatal V8 error that kills the whole process). The worker is
 *   therefore replaced after `LOCAL_CALLS_PER_ENGINE` calls, which also returns its memory.
 * The engine (worker, config and the US-English voice from the package's files) is started
 * lazily on first use. Calls are serialised: one synthesis at a time per process, shared by the
 * worker's creatives and (in `npm start`, the same process) the web's previews. Who goes next is
 * decided fairly (server/fair-queue.ts): a creative before any waiting preview, and within each,
 * the networks in turn — so one network's many calls delay another's by at most one call each.
 */

/** Options of `mespeak.speak` that we use. */
export interface MespeakOptions {
  /** 0-200, default 100. */
  amplitude: number;
  /** 0-99, default 50. */
  pitch: number;
  /** words per minute, default 175. */
  speed: number;
  /** extra gap between words, in 10 ms units. */
  wordgap: number;
  /** eSpeak voice variant (m1-m7, f1-f5, ...). */
  variant?: string;
}

/** Preset → engine settings. Variants change the timbre; pitch, speed and gaps the delivery. */
export const LOCAL_PRESETS: Record<VoicePreset, MespeakOptions> = {
  default: { amplitude: 100, pitch: 50, speed: 170, wordgap: 0 },
  warm: { amplitude: 110, pitch: 40, speed: 155, wordgap: 1, variant: 'm3' },
  bright: { amplitude: 100, pitch: 70, speed: 180, wordgap: 0, variant: 'f2' },
  deep: { amplitude: 120, pitch: 20, speed: 150, wordgap: 1, variant: 'm1' },
  fast: { amplitude: 100, pitch: 55, speed: 240, wordgap: 0, variant: 'm2' },
  calm: { amplitude: 90, pitch: 45, speed: 135, wordgap: 3, variant: 'f5' },
};

/** Scripts longer than this are refused (an ad read is far shorter). */
export const LOCAL_MAX_TEXT_LENGTH = 20_000;
/** The engine fails on its 80th call; replace it well before. */
export const LOCAL_CALLS_PER_ENGINE = 40;
/** Upper bound for one synthesis (plus engine start-up). */
export const LOCAL_TIMEOUT_MS = 60_000;

const VOICE_ID = 'en/en-us';

/** The engine's thread: a typed module, linted and type-checked like the rest. */
const ENGINE_MODULE = fileURLToPath(new URL('./local-engine.worker.ts', import.meta.url));

/**
 * Starts the engine's thread on its TypeScript module. Node 24 strips the types itself (the module
 * uses only erasable syntax and imports nothing but Node's own modules and types), so no loader is
 * needed — Node 20 needed a one-line tsx loader here.
 */
function startEngineWorker(): Worker {
  const data: EngineWorkerData = { voiceId: VOICE_ID };
  return new Worker(ENGINE_MODULE, { workerData: data });
}

class EngineFailure extends Error {
  constructor(
    readonly code: SynthesisErrorCode,
    readonly retryable: boolean,
    message: string,
  ) {
    super(message);
  }
}

/** Classes of the engine's queue: creatives (0) before previews (1). */
const PRIORITY = { creative: 0, preview: 1 } as const;

class LocalEngine {
  private worker?: Worker;
  private calls = 0;
  private readonly queue = new FairQueue({ concurrency: 1, classes: 2 });

  /** Serialised: one call at a time, the next chosen by purpose, then network in turn. */
  async speak(text: string, options: MespeakOptions, caller: SynthesisOptions = {}): Promise<Buffer> {
    const { signal } = caller;
    let release: () => void;
    try {
      release = await this.queue.acquire(caller.networkId ?? '', { priority: PRIORITY[caller.purpose ?? 'creative'], signal });
    } catch {
      throw new EngineFailure('cancelled', true, 'cancelled while waiting for the engine');
    }
    try {
      return await this.run(text, options, signal);
    } finally {
      release();
    }
  }

  private discard() {
    const w = this.worker;
    this.worker = undefined;
    this.calls = 0;
    if (w) void w.terminate();
  }

  /** Sends one message (or none, to wait for "ready") and waits for one reply. */
  private exchange(worker: Worker, message: EngineRequest | undefined, signal: AbortSignal): Promise<EngineReply> {
    return new Promise<EngineReply>((resolve, reject) => {
      const cleanup = () => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        signal.removeEventListener('abort', onAbort);
      };
      const onMessage = (reply: EngineReply) => {
        cleanup();
        resolve(reply);
      };
      const onError = (err: Error) => {
        cleanup();
        reject(new EngineFailure('engine_error', true, `engine worker failed: ${err.message}`));
      };
      const onExit = (code: number) => {
        cleanup();
        reject(new EngineFailure('engine_error', true, `engine worker exited (code ${code})`));
      };
      const onAbort = () => {
        cleanup();
        const timedOut = (signal.reason as Error | undefined)?.name === 'TimeoutError';
        reject(
          timedOut
            ? new EngineFailure('timeout', true, `no audio within ${LOCAL_TIMEOUT_MS} ms`)
            : new EngineFailure('cancelled', true, 'cancelled by the caller'),
        );
      };
      if (signal.aborted) return onAbort();
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      signal.addEventListener('abort', onAbort, { once: true });
      if (message !== undefined) worker.postMessage(message);
    });
  }

  private async run(text: string, options: MespeakOptions, callerSignal?: AbortSignal): Promise<Buffer> {
    if (callerSignal?.aborted) throw new EngineFailure('cancelled', true, 'cancelled before start');
    const timeout = AbortSignal.timeout(LOCAL_TIMEOUT_MS);
    const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
    if (this.worker && this.calls >= LOCAL_CALLS_PER_ENGINE) this.discard();
    try {
      if (!this.worker) {
        const worker = startEngineWorker();
        this.worker = worker;
        // Never leave an 'error' event unhandled (it would throw in this thread); forget a dead worker.
        worker.on('error', () => undefined);
        worker.on('exit', () => {
          if (this.worker === worker) this.discard();
        });
        const hello = await this.exchange(worker, undefined, signal);
        if (!hello.ready) throw new EngineFailure('engine_error', true, 'engine worker did not start');
      }
      const worker = this.worker;
      worker.ref();
      this.calls++;
      const reply = await this.exchange(worker, { text, options }, signal);
      worker.unref(); // an idle engine must not keep the process alive
      // eSpeak ends its run (emscripten's "exit(0) called") without audio when the text holds
      // nothing it can speak: the text's fault, so rejected, not the engine failing.
      if (reply.error && /exit\(0\) called/.test(reply.error)) throw new EngineFailure('rejected', false, 'nothing in the text the engine can speak');
      if (reply.error || !reply.audio) throw new EngineFailure('engine_error', false, reply.error ?? 'engine returned no audio');
      return Buffer.from(reply.audio.buffer, reply.audio.byteOffset, reply.audio.byteLength);
    } catch (err) {
      // A worker that failed, timed out or was interrupted mid-call is not reused.
      if (!(err instanceof EngineFailure && !err.retryable)) this.discard();
      throw err;
    }
  }
}

let engine: LocalEngine | undefined;

/**
 * The text goes to eSpeak as a command-line argument: remove control characters and make sure
 * it cannot be read as an option (a leading "-").
 */
function sanitise(text: string): string {
  const cleaned = text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ' ').trim();
  return cleaned.startsWith('-') ? ` ${cleaned}` : cleaned;
}

function fail(code: SynthesisErrorCode, retryable: boolean, message: string, cause?: unknown): never {
  throw synthesisFailure(`local synthesis: ${message}`, { code, retryable, cause });
}

export function localProvider(): SynthesisProvider {
  return {
    name: 'local',
    async synthesize(req: SynthesisRequest, opts?: SynthesisOptions): Promise<SynthesisResult> {
      if (!isVoicePreset(req.voice)) fail('voice_unavailable', false, `unknown voice preset ${JSON.stringify(req.voice)}`);
      const text = sanitise(req.text ?? '');
      if (!text) fail('invalid_request', false, 'empty text');
      if (text.length > LOCAL_MAX_TEXT_LENGTH) fail('invalid_request', false, `text longer than ${LOCAL_MAX_TEXT_LENGTH} characters`);

      engine ??= new LocalEngine();
      let audio: Buffer;
      try {
        audio = await engine.speak(text, LOCAL_PRESETS[req.voice], opts);
      } catch (err) {
        if (err instanceof EngineFailure) fail(err.code, err.retryable, err.message, err);
        fail('engine_error', true, `engine failed: ${err instanceof Error ? err.message : String(err)}`, err);
      }
      let durationMs: number;
      try {
        durationMs = parseWav(audio).durationMs;
      } catch (err) {
        fail('engine_error', false, `engine returned an unreadable WAV: ${(err as Error).message}`, err);
      }
      return { audio, mimeType: 'audio/wav', durationMs };
    },
  };
}
