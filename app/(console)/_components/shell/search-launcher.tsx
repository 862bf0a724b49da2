'use client';

import { Search } from 'lucide-react';
import dynamic from 'next/dynamic';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Button } from '@/app/(console)/_components/ui/button';
import { cn } from '@/app/(console)/_lib/cn';

/** The palette's code loads when it first opens (or on intent, hovering the button), never with the page. */
const loadPalette = () => import('./command-palette');
const CommandPalette = dynamic(loadPalette, { ssr: false });

/** "⌘K" on Apple keyboards, "Ctrl K" elsewhere. */
function shortcutLabel(): string {
  return typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform) ? '⌘K' : 'Ctrl K';
}

/**
 * The search palette's state and its shortcut, Ctrl-K / ⌘K, from anywhere in the console (also
 * while typing in a field: it is the one shortcut, and it is what people press). The shell holds
 * it once, above both layouts: a window resized across the side bar's breakpoint swaps the search
 * buttons, and the palette (open or not) must not go with them.
 */
export function useSearchPalette(networkId: string): { show: () => void; palette: ReactNode } {
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() === 'k' && (event.metaKey || event.ctrlKey) && !event.altKey && !event.shiftKey) {
        event.preventDefault();
        setUsed(true);
        setOpen((was) => !was);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  const show = useCallback(() => {
    setUsed(true);
    setOpen(true);
  }, []);
  return { show, palette: used && <CommandPalette networkId={networkId} open={open} onOpenChange={setOpen} /> };
}

/** The button opening the palette. `compact`: the icon alone, for the narrow screens' top bar. */
export function SearchButton({ onClick, compact = false }: { onClick: () => void; compact?: boolean }) {
  if (compact) {
    return (
      <Button variant="ghost" size="icon" aria-label="Search" aria-keyshortcuts="Control+K Meta+K" onClick={onClick} onPointerEnter={loadPalette}>
        <Search aria-hidden />
      </Button>
    );
  }
  return (
    <button
      type="button"
      onClick={onClick}
      onPointerEnter={loadPalette}
      onFocus={loadPalette}
      aria-keyshortcuts="Control+K Meta+K"
      className={cn(
        'flex w-full items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-600 shadow-sm hover:border-slate-400 hover:text-slate-900',
      )}
    >
      <Search className="size-4" aria-hidden />
      <span className="flex-1 text-left">Search…</span>
      <kbd className="rounded border border-slate-300 bg-slate-50 px-1.5 font-sans text-xs text-slate-600">{shortcutLabel()}</kbd>
    </button>
  );
}
