'use client';

import { useSyncExternalStore } from 'react';
import { THEME_ATTRIBUTE, THEME_ITEM } from './theme-script';

export type ThemeChoice = 'system' | 'light' | 'dark';

const listeners = new Set<() => void>();

/** The choice in storage (another tab may have just changed it). */
function storedChoice(): ThemeChoice {
  try {
    const stored = window.localStorage.getItem(THEME_ITEM);
    return stored === 'light' || stored === 'dark' ? stored : 'system';
  } catch {
    return 'system';
  }
}

/** The choice showing: <html>'s attribute, which THEME_SCRIPT set from storage and chooseTheme sets. */
function shownChoice(): ThemeChoice {
  const shown = document.documentElement.getAttribute(THEME_ATTRIBUTE);
  return shown === 'light' || shown === 'dark' ? shown : 'system';
}

/** What THEME_SCRIPT does at load, for a choice made now (here or in another tab). */
function applyChoice(choice: ThemeChoice): void {
  if (choice === 'system') document.documentElement.removeAttribute(THEME_ATTRIBUTE);
  else document.documentElement.setAttribute(THEME_ATTRIBUTE, choice);
}

/** Keep the choice (in this browser, for every tab) and show it at once. */
export function chooseTheme(choice: ThemeChoice): void {
  try {
    if (choice === 'system') window.localStorage.removeItem(THEME_ITEM);
    else window.localStorage.setItem(THEME_ITEM, choice);
  } catch {
    // Storage refused (privacy settings): the choice holds until the page is left.
  }
  applyChoice(choice);
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key !== THEME_ITEM && event.key !== null) return;
    applyChoice(storedChoice());
    listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The theme chosen with the toggle: 'system' (the default), 'light' or 'dark'. Set it with chooseTheme. */
export function useThemeChoice(): ThemeChoice {
  return useSyncExternalStore(subscribe, shownChoice, () => 'system');
}
