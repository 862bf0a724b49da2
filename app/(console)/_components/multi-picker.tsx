'use client';

import { X } from 'lucide-react';
import { useId, useMemo, useState, type ReactNode } from 'react';
import { Controller, type Control, type FieldError, type FieldValues, type Path } from 'react-hook-form';
import { Checkbox } from '@/app/(console)/_components/ui/checkbox';
import { describedByOf, FieldNotes } from '@/app/(console)/_components/ui/form';
import { Input } from '@/app/(console)/_components/ui/input';
import { LoadingBlock } from '@/app/(console)/_components/ui/skeleton';
import { ErrorState } from '@/app/(console)/_components/ui/states';
import { categoryOptions, useAdCategories } from '@/app/(console)/_lib/ad-categories';

/** One choice of a picker: `label` is what is chosen ("Beer"), `detail` what places it ("Alcohol"). */
export interface PickerOption {
  id: string;
  label: string;
  detail?: string;
}

/*
 * The list of matches is `relative`: a Radix checkbox in a form renders a hidden input placed
 * absolutely, which would otherwise stretch the dialog's scroll past the list's own box.
 */

/** How many matches are drawn at once: enough to browse, few enough to draw at once (the taxonomy has ~600). */
const SHOWN = 50;

/** The first message of a field's error, or of one of its items' (the API names `categories.2`). */
function messageOf(error: FieldError | FieldError[] | undefined): string | undefined {
  if (!error) return undefined;
  if (!Array.isArray(error) && error.message) return error.message;
  for (const item of Object.values(error as Record<string, unknown>)) {
    if (item && typeof item === 'object' && 'message' in item && typeof item.message === 'string') return item.message;
  }
  return undefined;
}

/**
 * A searchable multiple choice bound to a react-hook-form array of ids (ad categories, advertisers):
 * the chosen ones as chips that can be removed, a search box, and the matches as checkboxes.
 * `options` undefined while they load.
 *
 *   <MultiPicker control={form.control} name="categories" label="Categories" noun={['category', 'categories']}
 *     options={categories} max={10} />
 */
export function MultiPicker<T extends FieldValues>({
  control,
  name,
  label,
  description,
  noun: [one, many],
  options,
  loadError,
  onRetry,
  max,
  placeholder,
}: {
  control: Control<T>;
  name: Path<T>;
  label: string;
  description?: ReactNode;
  /** What one and several choices are called: ['category', 'categories']. */
  noun: [string, string];
  options: PickerOption[] | undefined;
  loadError?: unknown;
  onRetry?: () => void;
  max?: number;
  placeholder?: string;
}) {
  const id = useId();
  const [query, setQuery] = useState('');
  const byId = useMemo(() => new Map((options ?? []).map((o) => [o.id, o])), [options]);
  const matches = useMemo(() => {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    const found = (options ?? []).filter((o) => {
      const text = `${o.label} ${o.detail ?? ''}`.toLowerCase();
      return words.every((word) => text.includes(word));
    });
    // Names that start with what was typed first ("beer" → Beer before Root Beer), otherwise in the list's order.
    const first = words.join(' ');
    return first
      ? [...found.filter((o) => o.label.toLowerCase().startsWith(first)), ...found.filter((o) => !o.label.toLowerCase().startsWith(first))]
      : found;
  }, [options, query]);
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => {
        const chosen = (field.value as string[] | undefined) ?? [];
        const chosenSet = new Set(chosen);
        const full = max !== undefined && chosen.length >= max;
        const error = messageOf(fieldState.error as FieldError | FieldError[] | undefined);
        const set = (next: string[]) => field.onChange(next);
        return (
          <fieldset className="space-y-2" aria-describedby={describedByOf(id, description, error)}>
            <legend className="text-sm font-medium text-slate-800">{label}</legend>
            <FieldNotes id={id} description={description} />
            {chosen.length === 0 ? (
              <p className="text-sm text-slate-600">None chosen.</p>
            ) : (
              <ul aria-label={`Chosen ${many}`} className="flex flex-wrap gap-1.5">
                {chosen.map((choice) => {
                  const option = byId.get(choice);
                  const text = option ? option.label : choice;
                  return (
                    <li
                      key={choice}
                      className="inline-flex max-w-full items-center gap-1 rounded-md bg-indigo-50 py-0.5 pr-1 pl-2.5 text-xs font-medium text-indigo-800 ring-1 ring-indigo-300 ring-inset"
                      title={option?.detail ? `${option.detail} › ${option.label}` : undefined}
                    >
                      <span className="min-w-0 break-words">{text}</span>
                      <button
                        type="button"
                        className="rounded-full p-0.5 hover:bg-indigo-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
                        aria-label={`Remove ${text}`}
                        onClick={() => set(chosen.filter((c) => c !== choice))}
                      >
                        <X className="size-3.5" aria-hidden />
                      </button>
                    </li>
                  );
                })}
              </ul>
            )}
            <Input
              type="search"
              aria-label={`Search ${many}`}
              placeholder={placeholder ?? `Search ${many}`}
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              // Enter in the search box must not submit the dialog's form.
              onKeyDown={(e) => e.key === 'Enter' && e.preventDefault()}
              autoComplete="off"
            />
            {loadError ? (
              <ErrorState error={loadError} onRetry={onRetry} />
            ) : !options ? (
              <LoadingBlock label={`Loading ${many}…`} />
            ) : matches.length === 0 ? (
              <p className="text-sm text-slate-600">{query ? `No ${many} match “${query}”.` : `No ${many} to choose from.`}</p>
            ) : (
              <ul
                aria-label={`${label} to choose from`}
                className="relative max-h-48 divide-y divide-slate-100 overflow-y-auto rounded-md border border-slate-200"
              >
                {matches.slice(0, SHOWN).map((option) => {
                  const boxId = `${id}-${option.id}`;
                  const checked = chosenSet.has(option.id);
                  return (
                    <li key={option.id} className="flex items-start gap-2.5 px-3 py-1.5">
                      <Checkbox
                        id={boxId}
                        className="mt-0.5"
                        checked={checked}
                        disabled={!checked && full}
                        onCheckedChange={(on) => set(on === true ? [...chosen, option.id] : chosen.filter((c) => c !== option.id))}
                        onBlur={field.onBlur}
                      />
                      <label htmlFor={boxId} className="min-w-0 text-sm break-words text-slate-900">
                        {option.label}
                        {option.detail && <span className="block text-xs text-slate-600">{option.detail}</span>}
                      </label>
                    </li>
                  );
                })}
              </ul>
            )}
            <p className="text-xs text-slate-600" aria-live="polite">
              {chosen.length} {chosen.length === 1 ? one : many} chosen{max !== undefined ? `, at most ${max}` : ''}.
              {matches.length > SHOWN && ` Showing ${SHOWN} of ${matches.length}: search to narrow.`}
            </p>
            <FieldNotes id={id} error={error} />
          </fieldset>
        );
      }}
    />
  );
}

/** A `MultiPicker` over the ad categories (an advertiser's, a podcast's exclusions), crediting the taxonomy as its licence asks. */
export function CategoryPicker<T extends FieldValues>({
  control,
  name,
  label,
  description,
  placeholder,
  max,
}: {
  control: Control<T>;
  name: Path<T>;
  label: string;
  description: string;
  placeholder: string;
  max: number;
}) {
  const categories = useAdCategories();
  return (
    <MultiPicker
      control={control}
      name={name}
      label={label}
      noun={['category', 'categories']}
      description={`${description}${categories.data ? ` Categories of the ${categories.data.credit}.` : ''}`}
      placeholder={placeholder}
      options={categoryOptions(categories.data)}
      loadError={categories.error}
      onRetry={() => categories.refetch()}
      max={max}
    />
  );
}
