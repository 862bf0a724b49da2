/**
 * Worker-thread body of the `local` synthesis engine (started by `server/synth/local.ts`, which
 * explains why the engine lives in a thread): loads `mespeak` with its config and the US-English
 * voice, says `{ ready: true }`, then answers one `EngineRequest` at a time with audio or an error.
 */
import { readlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { getPriority, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { MespeakOptions } from '@/server/synth/local';

/** What the thread is started with. */
export interface EngineWorkerData {
  /** eSpeak voice id, e.g. `en/en-us`. */
  voiceId: string;
}

/** One synthesis, posted by the main thread. */
export interface EngineRequest {
  text: string;
  options: MespeakOptions;
}

/** The thread's answer: `ready` once after loading, then `audio` or `error` per request. */
export type EngineReply = { ready?: true; audio?: Uint8Array; error?: string };

/** Synthesis is background work: the thread runs this many nice levels below the requests it shares the cores with. */
export const ENGINE_NICE = 10;

/**
 * Lowers this thread's priority, so that a flood of previews or creatives, which keeps the engine
 * busy, does not take CPU from the event loops serving every network's requests
 * (docs/PERFORMANCE.md, "Noisy neighbours"). Linux gives each thread its own nice value, set through
 * its kernel thread id (`/proc/thread-self`). Best effort: elsewhere, or where the system refuses,
 * the thread keeps the process's priority.
 */
function lowerThreadPriority(): void {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    setPriority(threadId, Math.min(19, getPriority(threadId) + ENGINE_NICE));
  } catch {
    // not Linux, or not permitted: the engine keeps the service's priority
  }
}

/** The part of mespeak's API that we use (the package ships no types). */
interface Mespeak {
  loadConfig(config: unknown): void;
  loadVoice(voice: unknown): void;
  isConfigLoaded(): boolean;
  isVoiceLoaded(voiceId: string): boolean;
  speak(text: string, options: MespeakOptions & { rawdata: 'array'; voice: string }): ArrayLike<number> | null | 0;
}

if (!parentPort) throw new Error('local-engine.worker.ts runs only as a worker thread');
const port = parentPort;
const { voiceId } = workerData as EngineWorkerData;

// mespeak is CommonJS with JSON data files: load it with Node's own require.
const load = createRequire(import.meta.url);
const warn = console.warn;
console.warn = () => {}; // the engine warns that it cannot play audio outside a browser
const mespeak = load('mespeak') as Mespeak;
console.warn = warn;
mespeak.loadConfig(load('mespeak/src/mespeak_config.json'));
mespeak.loadVoice(load('mespeak/voices/en/en-us.json'));
if (!mespeak.isConfigLoaded() || !mespeak.isVoiceLoaded(voiceId)) {
  throw new Error('mespeak: config or voice did not load');
}

function reply(message: EngineReply, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer);
}

port.on('message', (request: EngineRequest) => {
  try {
    const out = mespeak.speak(request.text, { rawdata: 'array', voice: voiceId, ...request.options });
    if (!out) return reply({ error: 'engine returned no audio' });
    const audio = Uint8Array.from(out);
    reply({ audio }, [audio.buffer]);
  } catch (err) {
    reply({ error: err instanceof Error ? err.message : String(err) });
  }
});
lowerThreadPriority();
reply({ ready: true });
