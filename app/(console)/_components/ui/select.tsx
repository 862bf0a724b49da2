import { ChevronDown } from 'lucide-react';
import type { ComponentProps } from 'react';
import { cn } from '../../_lib/cn';
import { fieldClasses } from './input';

export interface SelectOption {
  value: string;
  label: string;
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
