/**
 * Voice synthesis: one interface, several providers (server/synth/README.md; `SYNTH_PROVIDER` chooses one).
 *
 * Nothing in this module's client-facing output (`SynthesisError.clientReason`) may name the
 * vendor, its voice ids or its URLs; those stay in `message`/`detail`, which are for logs only.
 */

/** The voice presets a podcast can choose. Providers map a preset to their own settings. */
export const VOICE_PRESETS = ['default', 'warm', 'bright', 'deep', 'fast', 'calm'] as const;
export type VoicePreset = (typeof VOICE_PRESETS)[number];

export function isVoicePreset(value: string): value is VoicePreset {
  return (VOICE_PRESETS as readonly string[]).includes(value);
}

export interface SynthesisRequest {
  /** The script to speak. */
  text: string;
  /** A preset name: default | warm | bright | deep | fast | calm. */
  voice: string;
}

export interface SynthesisResult {
  audio: Buffer;
  /** e.g. `audio/wav`, `audio/mpeg`. */
  mimeType: string;
  durationMs: number;
}

/** How to run one synthesis: who waits for it, and whether it may be cancelled. */
export interface SynthesisOptions {
  signal?: AbortSignal;
  /**
   * Where callers share one engine (the local provider: one synthesis at a time per process), a
   * creative's synthesis is served before waiting previews. Default `creative`.
   */
  purpose?: 'creative' | 'preview';
  /** The network that asks: where callers share one engine, networks are served in turn. */
  networkId?: string;
}

export interface SynthesisProvider {
  name: string;
  synthesize(req: SynthesisRequest, opts?: SynthesisOptions): Promise<SynthesisResult>;
}

/** Environment variables (process.env or a plain object in tests). */
export type SynthEnv = Readonly<Record<string, string | undefined>>;

/** Machine-readable cause of a synthesis failure. */
export type SynthesisErrorCode =
  | 'unavailable' // connection error or 5xx
  | 'timeout'
  | 'rate_limited' // 429
  | 'cancelled' // the caller aborted
  | 'unauthorized' // 401/403: our credentials or configuration
  | 'voice_unavailable' // unknown preset, or the upstream does not know the voice
  | 'rejected' // other 4xx: the upstream refused the script/request
  | 'invalid_request' // empty script etc., refused before calling anyone
  | 'invalid_audio' // the upstream answered 2xx with something that is not audio we can read
  | 'silent_audio' // the audio holds no measurable sound, so it cannot be brought to broadcast loudness
  | 'engine_error'; // the local engine failed

export interface SynthesisErrorInit {
  code: SynthesisErrorCode;
  retryable: boolean;
  /** Client-facing sentence: no vendor name, vendor voice id or URL. */
  clientReason: string;
  /** Upstream HTTP status, when there was one. */
  status?: number;
  /** Log-only detail (e.g. a truncated upstream error body). Never show it to clients. */
  detail?: string;
  /** How many upstream calls were made. */
  attempts?: number;
  cause?: unknown;
}

/**
 * A failed synthesis. `retryable` tells the job whether trying again later can help
 * (connection errors, time-outs, 429, 5xx) or not (other 4xx, invalid audio, bad input).
 * `message` is for logs; `clientReason` is the only text meant for clients.
 */
export class SynthesisError extends Error {
  readonly code: SynthesisErrorCode;
  readonly retryable: boolean;
  readonly clientReason: string;
  readonly status?: number;
  readonly detail?: string;
  readonly attempts?: number;

  constructor(message: string, init: SynthesisErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'SynthesisError';
    this.code = init.code;
    this.retryable = init.retryable;
    this.clientReason = init.clientReason;
    this.status = init.status;
    this.detail = init.detail;
    this.attempts = init.attempts;
  }
}

/** A `SynthesisError` whose client sentence is its code's (`CLIENT_REASONS`), as every provider and mastering tell clients. */
export function synthesisFailure(message: string, init: Omit<SynthesisErrorInit, 'clientReason'>): SynthesisError {
  return new SynthesisError(message, { ...init, clientReason: CLIENT_REASONS[init.code] });
}

export function isSynthesisError(err: unknown): err is SynthesisError {
  return err instanceof SynthesisError;
}

/** Client-facing sentences, shared by the providers. */
export const CLIENT_REASONS = {
  unavailable: 'The voice service is temporarily unavailable.',
  timeout: 'The voice service did not respond in time.',
  rate_limited: 'The voice service is busy; please try again later.',
  cancelled: 'The voice request was cancelled.',
  unauthorized: 'The voice service is not configured correctly.',
  voice_unavailable: 'The selected voice is not available.',
  rejected: 'The voice service rejected the script.',
  invalid_request: 'The script cannot be synthesised: it is empty or too long.',
  invalid_audio: 'The voice service returned audio that could not be read.',
  silent_audio: 'The voice service returned silent audio.',
  engine_error: 'The voice engine could not synthesise the script.',
} as const satisfies Record<SynthesisErrorCode, string>;
