'use client';

import { Toaster as Sonner } from 'sonner';

/**
 * Mounted once by ConsoleProviders. Pages call `toast.success('Saved')` / `toast.error(problemSentence(e))` from 'sonner'.
 * Bottom right, not top right: every page keeps its main action (New offer, Create campaign, …) at
 * the top right, and a toast there covered it. Pointing at a toast keeps it open, so the button
 * stayed covered for as long as the pointer waited on it (an e2e run on a slow machine did).
 * console.css darkens sonner's rich-colour texts for WCAG AA.
 */
export function Toaster() {
  return <Sonner position="bottom-right" richColors closeButton duration={5000} />;
}

export { toast } from 'sonner';
