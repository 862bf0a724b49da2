'use client';

import type { CSSProperties } from 'react';
import { Toaster as Sonner } from 'sonner';

/**
 * Sonner's rich colours put text just under WCAG AA contrast (about 4.2:1) on their pale
 * backgrounds; these darker text colours of the same hues pass (axe color-contrast).
 */
const ACCESSIBLE_RICH_COLORS = {
  '--success-text': 'hsl(140, 100%, 20%)',
  '--info-text': 'hsl(210, 92%, 32%)',
  '--warning-text': 'hsl(31, 92%, 26%)',
  '--error-text': 'hsl(360, 100%, 35%)',
} as CSSProperties;

/** Mounted once by ConsoleProviders. Pages call `toast.success('Saved')` / `toast.error(problemSentence(e))` from 'sonner'. */
export function Toaster() {
  return <Sonner position="top-right" richColors closeButton duration={5000} style={ACCESSIBLE_RICH_COLORS} />;
}

export { toast } from 'sonner';
