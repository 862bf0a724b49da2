'use client';

import type { CSSProperties } from 'react';
import { Toaster as Sonner } from 'sonner';

/** Sonner's rich-colour texts are a little light for WCAG AA (axe: color-contrast); darker ones on the same backgrounds. */
const CONTRAST = {
  '--success-text': '#065f46',
  '--error-text': '#991b1b',
  '--warning-text': '#92400e',
  '--info-text': '#1e40af',
} as CSSProperties;

/**
 * Mounted once by ConsoleProviders. Pages call `toast.success('Saved')` / `toast.error(problemSentence(e))` from 'sonner'.
 * Bottom right, not top right: every page keeps its main action (New offer, Create campaign, …) at
 * the top right, and a toast there covered it. Pointing at a toast keeps it open, so the button
 * stayed covered for as long as the pointer waited on it (an e2e run on a slow machine did).
 */
export function Toaster() {
  return <Sonner position="bottom-right" richColors closeButton duration={5000} style={CONTRAST} />;
}

export { toast } from 'sonner';
