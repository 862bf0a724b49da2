'use client';

import { Toaster as Sonner } from 'sonner';
import { useThemeChoice } from '@/app/(console)/_lib/theme';

/**
 * Mounted once by ConsoleProviders. Pages call `toast.success('Saved')` / `toast.error(problemSentence(e))` from 'sonner'.
 * Bottom right, not top right: every page keeps its main action (New offer, Create campaign, …) at
 * the top right, and a toast there covered it. Pointing at a toast keeps it open, so the button
 * stayed covered for as long as the pointer waited on it (an e2e run on a slow machine did).
 * Its theme is the console's ('system' follows the system as console.css does); console.css
 * darkens sonner's rich-colour texts in the light theme for WCAG AA.
 */
export function Toaster() {
  const theme = useThemeChoice();
  return <Sonner position="bottom-right" richColors closeButton duration={5000} theme={theme} />;
}

export { toast } from 'sonner';
