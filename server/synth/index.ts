import { config } from '@/server/config';
import { httpConfigFromEnv, httpProvider } from './http';
import { localProvider } from './local';
import type { SynthEnv, SynthesisProvider } from './types';

export * from './types';
export { httpProvider, httpConfigFromEnv, DEFAULT_VOICE_MAP, type HttpProviderConfig } from './http';
export { localProvider, LOCAL_PRESETS } from './local';

/**
 * The configured synthesis provider.
 *
 * - `SYNTH_PROVIDER=local` (default): offline speech, WAV.
 * - `SYNTH_PROVIDER=http`: ElevenLabs-style API; requires `SYNTH_BASE_URL`, usually `SYNTH_API_KEY`.
 *   Optional: `SYNTH_MODEL_ID`, `SYNTH_VOICE_MAP` (JSON preset → voice id), `SYNTH_TIMEOUT_MS`
 *   (30000), `SYNTH_MAX_RETRIES` (2), `SYNTH_RETRY_BASE_MS` (500), `SYNTH_MAX_RETRY_DELAY_MS` (10000).
 *
 * The service's own comes from server/config.ts, which parsed these settings at start; `env` (tests)
 * parses a plain object instead, and throws an `Error` with a clear message when it is invalid.
 */
export function synthesisProvider(env?: SynthEnv): SynthesisProvider {
  if (!env) {
    const { synthesisHttp } = config();
    return synthesisHttp ? httpProvider(synthesisHttp) : localProvider();
  }
  const name = (env.SYNTH_PROVIDER ?? '').trim().toLowerCase() || 'local';
  switch (name) {
    case 'local':
      return localProvider();
    case 'http':
      return httpProvider(httpConfigFromEnv(env));
    default:
      throw new Error(`SYNTH_PROVIDER must be "local" or "http", got ${JSON.stringify(env.SYNTH_PROVIDER)}`);
  }
}
