import { ChevronDown } from 'lucide-react';
import type { ComponentProps } from 'react';
import { cn } from '@/app/(console)/_lib/cn';
import { fieldClasses } from './input';

export interface SelectOption {
  value: string;
  label: string;
}

/**
 * Options for each value of an API enum, in the API's order: `optionsOf(offerStatusSchema.options)`.
 * Labels read `not_opted_in` as "Not opted in"; give `labels` where a word helps.
 */
export function optionsOf<V extends string>(values: readonly V[], labels: Partial<Record<V, string>> = {}): { value: V; label: string }[] {
  return values.map((value) => ({ value, label: labels[value] ?? value[0]!.toUpperCase() + value.slice(1).replaceAll('_', ' ') }));
}

/** Options naming things by id: `namedOptions(advertisers.data?.items)`. */
export function namedOptions(items: { id: string; name: string }[] | undefined): SelectOption[] {
  return (items ?? []).map((item) => ({ value: item.id, label: item.name }));
}

/**
 * A native <select> (keyboard, screen readers and phones handle it best),
 * styled like Input. Pass `options` or <option> children; works with
 * react-hook-form's `register`.
 */
export function Select({
  className,
  options,
  placeholder,
  children,
  ...props
}: ComponentProps<'select'> & { options?: SelectOption[]; placeholder?: string }) {
  return (
    <div className={cn('relative', className)}>
      <select className={cn(fieldClasses, 'h-9 appearance-none pr-9')} {...props}>
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options?.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
        {children}
      </select>
      <ChevronDown className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-slate-500" aria-hidden />
    </div>
  );
}
