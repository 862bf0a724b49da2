'use client';

import { useSyncExternalStore } from 'react';

/**
 * The signed-in API key lives in sessionStorage only (no cookies, no
 * localStorage): it is gone when the tab closes, and never logged.
 */
const KEY_ITEM = 'ans.console.apiKey';
const NOTICE_ITEM = 'ans.console.signInNotice';

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

function storage(): Storage | undefined {
  return typeof window === 'undefined' ? undefined : window.sessionStorage;
}

export function readApiKey(): string | null {
  return storage()?.getItem(KEY_ITEM) ?? null;
}

export function signIn(apiKey: string): void {
  signedOutByUser = false;
  storage()?.setItem(KEY_ITEM, apiKey);
  storage()?.removeItem(NOTICE_ITEM);
  notify();
}

let signedOutByUser = false;

/** True right after the person pressed "Sign out" (then sign-in should not return them to the page they left). */
export function wasSignedOutByUser(): boolean {
  return signedOutByUser;
}

/**
 * Forget the key. `notice` is shown once on the sign-in page (why you were
 * signed out); without one, the person signed out themselves.
 */
export function signOut(notice?: string): void {
  signedOutByUser = !notice;
  storage()?.removeItem(KEY_ITEM);
  if (notice) storage()?.setItem(NOTICE_ITEM, notice);
  notify();
}

/** The notice left by signOut, removed once read. */
export function takeSignInNotice(): string | null {
  const notice = storage()?.getItem(NOTICE_ITEM) ?? null;
  if (notice) storage()?.removeItem(NOTICE_ITEM);
  return notice;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => event.key === KEY_ITEM && listener();
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/**
 * The current key: `undefined` while rendering on the server (unknown yet),
 * `null` when signed out, else the token.
 */
export function useApiKey(): string | null | undefined {
  return useSyncExternalStore(subscribe, readApiKey, () => undefined);
}

export const REVOKED_NOTICE = 'Your key was revoked or expired — sign in again.';
