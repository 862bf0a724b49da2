import { config, loadConfig } from '@/server/config';
import { httpConfigOf, httpProvider } from './http';
import { localProvider } from './local';
import type { SynthEnv, SynthesisProvider } from './types';
import type { Mode } from '@/domain/modes';

export * from './types';
export { httpProvider, httpConfigOf, DEFAULT_VOICE_MAP, type HttpProviderConfig } from './http';
export { localProvider, LOCAL_PRESETS } from './local';

/**
 * The configured synthesis provider.
 *
 * - `SYNTH_PROVIDER=local` (default): offline speech, WAV.
 * - `SYNTH_PROVIDER=http`: ElevenLabs-style API; requires `SYNTH_BASE_URL`, usually `SYNTH_API_KEY`.
 *   Optional: `SYNTH_MODEL_ID`, `SYNTH_VOICE_MAP` (JSON preset → voice id), `SYNTH_TIMEOUT_MS`
 *   (30000), `SYNTH_MAX_RETRIES` (2), `SYNTH_RETRY_BASE_MS` (500), `SYNTH_MAX_RETRY_DELAY_MS` (10000).
 *
 * Every setting is parsed by server/config.ts: the service's own configuration, or (tests) `env`
 * parsed the same way, which throws an `Error` naming the variable when it is invalid.
 */
export function synthesisProvider(env?: SynthEnv): SynthesisProvider {
  const c = env ? loadConfig(env as NodeJS.ProcessEnv) : config();
  return c.SYNTH_PROVIDER === 'http' ? httpProvider(httpConfigOf(c)) : localProvider();
}

/**
 * The provider for a network of this mode: a test network (a sandbox) gets the local engine and
 * never calls the paid vendor, unless SYNTH_TEST_NETWORKS=provider (refused with APP_ENV=live).
 */
export function synthesisProviderFor(mode: Mode): SynthesisProvider {
  return mode === 'test' && config().SYNTH_TEST_NETWORKS === 'local' ? localProvider() : synthesisProvider();
}
