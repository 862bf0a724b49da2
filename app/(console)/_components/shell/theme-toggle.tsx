'use client';

import { Monitor, Moon, Sun } from 'lucide-react';
import { useId } from 'react';
import { cn } from '@/app/(console)/_lib/cn';
import { chooseTheme, useThemeChoice, type ThemeChoice } from '@/app/(console)/_lib/theme';

const CHOICES: Array<{ value: ThemeChoice; label: string; icon: typeof Sun }> = [
  { value: 'system', label: 'System', icon: Monitor },
  { value: 'light', label: 'Light', icon: Sun },
  { value: 'dark', label: 'Dark', icon: Moon },
];

/**
 * System / Light / Dark, kept in this browser (`_lib/theme.ts`), as three icons beside "Sign out"
 * (the side bar has no height to spare: its navigation must not scroll at 800 px). Native radio
 * buttons in a fieldset: Tab reaches the chosen one, the arrow keys choose, a screen reader hears
 * "Theme" and each choice's name; a pointer gets the name as a tooltip.
 */
export function ThemeToggle({ className }: { className?: string }) {
  const choice = useThemeChoice();
  const name = useId();
  return (
    <fieldset className={cn('flex h-8 shrink-0 items-center gap-0.5 rounded-md border border-slate-300 bg-white p-0.5 shadow-sm', className)}>
      <legend className="sr-only">Theme</legend>
      {CHOICES.map(({ value, label, icon: Icon }) => (
        <label
          key={value}
          title={label}
          className={cn(
            'grid size-6.5 cursor-pointer place-items-center rounded has-focus-visible:outline-2 has-focus-visible:outline-indigo-600',
            choice === value ? 'bg-indigo-600 text-white' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
          )}
        >
          <input type="radio" name={name} value={value} checked={choice === value} onChange={() => chooseTheme(value)} className="sr-only" />
          <Icon className="size-4" aria-hidden />
          <span className="sr-only">{label}</span>
        </label>
      ))}
    </fieldset>
  );
}
