import type { Config } from '@/server/config';
import { isWav, parseMp3, parseWav } from './audio';
import {
  synthesisFailure,
  type SynthesisErrorCode,
  type SynthesisOptions,
  type SynthesisProvider,
  type SynthesisRequest,
  type SynthesisResult,
  type VoicePreset,
} from './types';

/**
 * Provider `http`: an ElevenLabs-style text-to-speech API.
 *
 *   POST {baseUrl}/v1/text-to-speech/{voiceId}
 *   xi-api-key: {apiKey}
 *   Accept: audio/mpeg
 *   {"text": "...", "model_id": "..."}
 *
 * Each attempt has its own time-out. Connection errors, time-outs, 429 and 5xx are retried within
 * the call with exponential backoff and jitter (honouring Retry-After), at most `maxRetries` times
 * and never waiting longer than `maxRetryDelayMs` between attempts, so one call lasts at most
 * about (maxRetries + 1) x timeoutMs + maxRetries x maxRetryDelayMs. After that a retryable
 * `SynthesisError` lets the job retry later. Other 4xx and unreadable audio are permanent.
 */

export interface HttpProviderConfig {
  baseUrl: string;
  apiKey?: string;
  modelId?: string;
  /** Preset (or any voice name) → vendor voice id. */
  voiceMap: Record<string, string>;
  timeoutMs: number;
  maxRetries: number;
  /** First backoff step; doubles each retry. */
  retryBaseDelayMs: number;
  /** Upper bound of one wait between attempts (also caps Retry-After). */
  maxRetryDelayMs: number;
  fetch?: typeof fetch;
}

/**
 * Default preset → voice ids: the vendor's public "premade" voices. Deployments should set
 * SYNTH_VOICE_MAP to the voices of their own account.
 */
export const DEFAULT_VOICE_MAP: Record<VoicePreset, string> = {
  default: '21m00Tcm4TlvDq8ikWAM',
  warm: 'ErXwobaYiN019PkySvjV',
  bright: 'EXAVITQu4vr4xnSDxMaL',
  deep: 'pNInz6obpgDQGcFmaJgB',
  fast: 'TxGEqnHWrfWFTfGW9XjX',
  calm: 'MF3mGyEYCl7XYWbV9V6O',
};

/** The provider's settings from the service's configuration (server/config.ts parsed them at start). */
export function httpConfigOf(c: Config): HttpProviderConfig {
  if (!c.SYNTH_BASE_URL) throw new Error('SYNTH_PROVIDER=http requires SYNTH_BASE_URL (e.g. https://api.example.com)');
  return {
    baseUrl: c.SYNTH_BASE_URL,
    apiKey: c.SYNTH_API_KEY,
    modelId: c.SYNTH_MODEL_ID,
    voiceMap: { ...DEFAULT_VOICE_MAP, ...c.SYNTH_VOICE_MAP },
    timeoutMs: c.SYNTH_TIMEOUT_MS,
    maxRetries: c.SYNTH_MAX_RETRIES,
    retryBaseDelayMs: c.SYNTH_RETRY_BASE_MS,
    maxRetryDelayMs: c.SYNTH_MAX_RETRY_DELAY_MS,
  };
}

/** Retry-After: delta-seconds or an HTTP-date. Returns milliseconds, or undefined when absent/invalid. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A failure of one attempt, before we decide whether to retry. */
class AttemptFailure {
  constructor(
    readonly code: SynthesisErrorCode,
    readonly retryable: boolean,
    readonly message: string,
    readonly extra: { status?: number; detail?: string; retryAfterMs?: number; cause?: unknown } = {},
  ) {}
}

function classifyStatus(status: number): { code: SynthesisErrorCode; retryable: boolean } {
  if (status === 429) return { code: 'rate_limited', retryable: true };
  if (status >= 500) return { code: 'unavailable', retryable: true };
  if (status === 401 || status === 403) return { code: 'unauthorized', retryable: false };
  if (status === 404) return { code: 'voice_unavailable', retryable: false };
  if (status === 408) return { code: 'timeout', retryable: true };
  return { code: 'rejected', retryable: false };
}

function mediaType(contentType: string | null): string {
  const base = contentType?.split(';')[0]?.trim().toLowerCase();
  return base || 'audio/mpeg';
}

function readAudio(audio: Buffer, contentType: string | null): SynthesisResult {
  const mimeType = mediaType(contentType);
  if (audio.length === 0) throw new AttemptFailure('invalid_audio', false, 'empty response body');
  try {
    // Trust the bytes more than the label: a WAV is a WAV whatever the Content-Type says.
    if (isWav(audio)) return { audio, mimeType: mimeType.includes('wav') ? mimeType : 'audio/wav', durationMs: parseWav(audio).durationMs };
    if (!mimeType.startsWith('audio/') && mimeType !== 'application/octet-stream') {
      throw new Error(`unexpected Content-Type ${mimeType}`);
    }
    return { audio, mimeType: mimeType === 'application/octet-stream' ? 'audio/mpeg' : mimeType, durationMs: parseMp3(audio).durationMs };
  } catch (err) {
    throw new AttemptFailure('invalid_audio', false, `unreadable audio: ${(err as Error).message}`, { cause: err });
  }
}

export function httpProvider(config: HttpProviderConfig): SynthesisProvider {
  const doFetch = config.fetch ?? fetch;
  const base = config.baseUrl.replace(/\/+$/, '');

  async function attempt(url: string, body: string, callerSignal?: AbortSignal): Promise<SynthesisResult> {
    const timeout = AbortSignal.timeout(config.timeoutMs);
    const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'audio/mpeg' };
    if (config.apiKey) headers['xi-api-key'] = config.apiKey;
    try {
      // No redirects: they would carry the API key to another origin. A 3xx is a permanent error.
      const res = await doFetch(url, { method: 'POST', headers, body, signal, redirect: 'manual' });
      if (!res.ok) {
        const text = await res.text().catch(() => '');
        const { code, retryable } = classifyStatus(res.status);
        throw new AttemptFailure(code, retryable, `upstream answered HTTP ${res.status}`, {
          status: res.status,
          detail: text.slice(0, 300),
          retryAfterMs: parseRetryAfter(res.headers.get('retry-after')),
        });
      }
      const audio = Buffer.from(await res.arrayBuffer());
      return readAudio(audio, res.headers.get('content-type'));
    } catch (err) {
      if (err instanceof AttemptFailure) throw err;
      if (callerSignal?.aborted) throw new AttemptFailure('cancelled', false, 'cancelled by the caller', { cause: err });
      if (timeout.aborted) throw new AttemptFailure('timeout', true, `no complete answer within ${config.timeoutMs} ms`, { cause: err });
      const cause = (err as { cause?: { code?: string } }).cause;
      const reason = cause?.code ?? (err as Error).message;
      throw new AttemptFailure('unavailable', true, `connection error (${reason})`, { cause: err });
    }
  }

  return {
    name: 'http',
    async synthesize(req: SynthesisRequest, opts?: SynthesisOptions): Promise<SynthesisResult> {
      const voiceId = config.voiceMap[req.voice];
      if (!voiceId) {
        throw synthesisFailure(`http synthesis: no voice id mapped for preset ${JSON.stringify(req.voice)}`, {
          code: 'voice_unavailable',
          retryable: false,
        });
      }
      if (!req.text?.trim()) {
        throw synthesisFailure('http synthesis: empty text', { code: 'invalid_request', retryable: false });
      }
      const url = `${base}/v1/text-to-speech/${encodeURIComponent(voiceId)}`;
      const body = JSON.stringify(config.modelId ? { text: req.text, model_id: config.modelId } : { text: req.text });

      let attempts = 0;
      for (;;) {
        attempts++;
        try {
          return await attempt(url, body, opts?.signal);
        } catch (err) {
          const failure = err as AttemptFailure;
          const retriesLeft = attempts <= config.maxRetries;
          let delay = 0;
          if (failure.retryable && retriesLeft && !opts?.signal?.aborted) {
            const backoff = Math.min(config.maxRetryDelayMs, config.retryBaseDelayMs * 2 ** (attempts - 1));
            delay = failure.extra.retryAfterMs ?? backoff / 2 + Math.random() * (backoff / 2);
          }
          // Give up when the failure is permanent, retries are spent, or the upstream asks us
          // to wait longer than we are allowed to (the job will retry later).
          if (!failure.retryable || !retriesLeft || opts?.signal?.aborted || delay > config.maxRetryDelayMs) {
            const code: SynthesisErrorCode = opts?.signal?.aborted ? 'cancelled' : failure.code;
            throw synthesisFailure(`http synthesis failed after ${attempts} attempt(s): ${failure.message}`, {
              code,
              retryable: code === 'cancelled' ? true : failure.retryable,
              status: failure.extra.status,
              detail: failure.extra.detail,
              attempts,
              cause: failure.extra.cause,
            });
          }
          try {
            await sleep(delay, opts?.signal);
          } catch (abortReason) {
            throw synthesisFailure(`http synthesis cancelled after ${attempts} attempt(s)`, {
              code: 'cancelled',
              retryable: true,
              attempts,
              cause: abortReason,
            });
          }
        }
      }
    },
  };
}
