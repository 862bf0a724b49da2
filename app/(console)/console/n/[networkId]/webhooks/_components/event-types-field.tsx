'use client';

import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';
import { Checkbox } from '@/app/(console)/_components/ui/checkbox';
import { Skeleton } from '@/app/(console)/_components/ui/skeleton';
import { ErrorState } from '@/app/(console)/_components/ui/states';
import { useTRPC } from '@/app/(console)/_lib/trpc';

/** The event types a webhook can subscribe to, with their descriptions (GET /event-types). */
export function useEventTypes() {
  const trpc = useTRPC();
  return useQuery(trpc.events.types.queryOptions(undefined, { staleTime: 5 * 60_000 }));
}

/**
 * A group of checkboxes, one per event type with its description, bound to a
 * react-hook-form array field of event type names.
 */
export function EventTypesField<T extends FieldValues>({ control, name, error }: { control: Control<T>; name: Path<T>; error?: string }) {
  const types = useEventTypes();
  const id = useId();
  return (
    <fieldset className="space-y-2" aria-describedby={error ? `${id}-error` : `${id}-hint`}>
      <legend className="text-sm font-medium text-slate-800">Events</legend>
      <p id={`${id}-hint`} className="text-xs text-slate-600">
        The endpoint receives a signed POST each time one of these happens in this network.
      </p>
      {types.error ? (
        <ErrorState error={types.error} onRetry={() => types.refetch()} />
      ) : !types.data ? (
        <div className="space-y-2" aria-busy>
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} className="h-8 w-full" />
          ))}
        </div>
      ) : (
        <Controller
          control={control}
          name={name}
          render={({ field }) => {
            const selected = new Set<string>((field.value as string[] | undefined) ?? []);
            return (
              <ul className="divide-y divide-slate-100 rounded-md border border-slate-200">
                {types.data.items.map((type) => {
                  const boxId = `${id}-${type.type}`;
                  return (
                    <li key={type.type} className="flex items-start gap-3 px-3 py-2">
                      <Checkbox
                        id={boxId}
                        className="mt-0.5"
                        checked={selected.has(type.type)}
                        aria-describedby={`${boxId}-description`}
                        onCheckedChange={(checked) => {
                          const next = new Set(selected);
                          if (checked === true) next.add(type.type);
                          else next.delete(type.type);
                          // Keep the API's order of types.
                          field.onChange(types.data.items.map((t) => t.type).filter((t) => next.has(t)));
                        }}
                        onBlur={field.onBlur}
                      />
                      <div className="min-w-0">
                        <label htmlFor={boxId} className="font-mono text-sm text-slate-900">
                          {type.type}
                        </label>
                        <p id={`${boxId}-description`} className="text-xs text-slate-600">
                          {type.description}
                        </p>
                      </div>
                    </li>
                  );
                })}
              </ul>
            );
          }}
        />
      )}
      {error && (
        <p id={`${id}-error`} className="text-xs font-medium text-red-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}
