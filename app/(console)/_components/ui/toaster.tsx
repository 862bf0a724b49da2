'use client';

import { Toaster as Sonner } from 'sonner';

/** Mounted once by ConsoleProviders. Pages call `toast.success('Saved')` / `toast.error(problemSentence(e))` from 'sonner'. */
export function Toaster() {
  return <Sonner position="top-right" richColors closeButton duration={5000} />;
}

export { toast } from 'sonner';
