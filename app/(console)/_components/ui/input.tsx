import type { ComponentProps } from 'react';
import { cn } from '@/app/(console)/_lib/cn';

export const fieldClasses =
  'block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus-visible:border-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-indigo-600 disabled:cursor-not-allowed disabled:bg-slate-100 aria-invalid:border-red-600';

/** A text input. Always pair it with a <Label htmlFor> (or use FormField, which does). */
export function Input({ className, ...props }: ComponentProps<'input'>) {
  return <input className={cn(fieldClasses, 'h-9', className)} {...props} />;
}

export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return <textarea className={cn(fieldClasses, 'min-h-24', className)} {...props} />;
}

/** An amount in whole units of a currency, cents allowed ("250", "25.50"): a number box for `valueAsNumber`. */
export function AmountInput(props: ComponentProps<'input'>) {
  return <Input type="number" min={0} step="0.01" inputMode="decimal" {...props} />;
}

/** An ISO 4217 code ("USD"), shown in capitals. */
export function CurrencyInput({ className, ...props }: ComponentProps<'input'>) {
  return <Input maxLength={3} autoCapitalize="characters" className={cn('uppercase', className)} {...props} />;
}
