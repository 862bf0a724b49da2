'use client';

import { TRPCClientError } from '@trpc/client';
import {
  startAuthentication,
  startRegistration,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import type { RouterInputs } from './trpc';

/*
 * Passkeys (WebAuthn) in the console, through @simplewebauthn/browser: the API hands out the
 * options (`signIn.passkeyOptions`, `passkeys.registrationOptions`) and checks what the browser
 * made of them (`signIn.withPasskey`, `passkeys.register`). Passkeys belong to the console's own
 * host name (the relying party, PUBLIC_URL's): the browser refuses them at any other address.
 */

export { browserSupportsWebAuthn } from '@simplewebauthn/browser';

/*
 * What the browser made, as the procedures' inputs type it: their schemas are loose objects (an
 * index signature), which the library's interfaces do not declare, so the answer is handed over as is.
 */
type SignedChallenge = RouterInputs['signIn']['withPasskey']['response'];
type NewPasskey = RouterInputs['passkeys']['register']['response'];

/** The sign-in prompt of the browser for the API's request options (any passkey of this site: discoverable). */
export async function askForPasskey(options: { challenge: string }): Promise<SignedChallenge> {
  const answer: AuthenticationResponseJSON = await startAuthentication({ optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON });
  return answer as unknown as SignedChallenge;
}

/** The browser's prompt to make a passkey from the API's creation options. */
export async function makePasskey(options: { challenge: string }): Promise<NewPasskey> {
  const answer: RegistrationResponseJSON = await startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON });
  return answer as unknown as NewPasskey;
}

/**
 * What the browser's side of a passkey prompt ended with, for a person; `null` when `error` is not
 * the browser's (an API answer: use problemOf). `cancelled` is the person closing the prompt, or
 * letting it time out, or having no passkey to offer (browsers do not tell these apart, on
 * purpose): say so quietly, it is not an error to dwell on.
 */
export function browserPasskeyFailure(error: unknown, rpId: string | undefined): { cancelled: boolean; message: string } | null {
  if (!(error instanceof Error) || error instanceof TRPCClientError) return null;
  const code = (error as Error & { code?: string }).code;
  if (error.name === 'NotAllowedError' || error.name === 'AbortError' || code === 'ERROR_CEREMONY_ABORTED') {
    return { cancelled: true, message: 'No passkey was used: the prompt was closed or timed out.' };
  }
  if (code === 'ERROR_INVALID_DOMAIN' || code === 'ERROR_INVALID_RP_ID' || error.name === 'SecurityError') {
    return {
      cancelled: false,
      message: rpId
        ? `Passkeys of this console belong to ${rpId}, and this page is open at ${window.location.hostname}: open the console at ${rpId} to use them.`
        : `Passkeys do not work at this address (${window.location.hostname}).`,
    };
  }
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || error.name === 'InvalidStateError') {
    return { cancelled: false, message: 'This device already holds one of your passkeys for this console: it is in the list.' };
  }
  if (/not supported/i.test(error.message) || error.name === 'NotSupportedError') {
    return { cancelled: false, message: 'This browser or device cannot use passkeys here.' };
  }
  return { cancelled: false, message: `The browser could not use a passkey: ${error.message}` };
}

/** The rpId of options from the API (creation options name it under `rp.id`, request options as `rpId`). */
export function rpIdOf(options: Record<string, unknown> | undefined): string | undefined {
  if (!options) return undefined;
  if (typeof options.rpId === 'string') return options.rpId;
  const rp = options.rp as { id?: unknown } | undefined;
  return typeof rp?.id === 'string' ? rp.id : undefined;
}

/** A name for a new passkey that says where it was made: "Chrome on macOS". The person may change it. */
export function defaultPasskeyName(userAgent: string = typeof navigator === 'undefined' ? '' : navigator.userAgent): string {
  const browser = /Edg(A|iOS)?\//.test(userAgent)
    ? 'Edge'
    : /OPR\//.test(userAgent)
      ? 'Opera'
      : /Firefox\/|FxiOS\//.test(userAgent)
        ? 'Firefox'
        : /Chrome\/|CriOS\//.test(userAgent)
          ? 'Chrome'
          : /Safari\//.test(userAgent)
            ? 'Safari'
            : undefined;
  const platform = /iPhone/.test(userAgent)
    ? 'iPhone'
    : /iPad/.test(userAgent)
      ? 'iPad'
      : /Android/.test(userAgent)
        ? 'Android'
        : /CrOS/.test(userAgent)
          ? 'ChromeOS'
          : /Mac OS X|Macintosh/.test(userAgent)
            ? 'macOS'
            : /Windows/.test(userAgent)
              ? 'Windows'
              : /Linux/.test(userAgent)
                ? 'Linux'
                : undefined;
  if (browser && platform) return `${browser} on ${platform}`;
  return browser ?? platform ?? 'My passkey';
}
