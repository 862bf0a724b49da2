'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useId, type ComponentProps, type ReactNode } from 'react';
import {
  Controller,
  useForm,
  type FieldValues,
  type Path,
  type RegisterOptions,
  type Resolver,
  type UseFormProps,
  type UseFormRegisterReturn,
  type UseFormReturn,
} from 'react-hook-form';
import { z } from 'zod';
import { cn } from '@/app/(console)/_lib/cn';
import { problemOf, problemSentence } from '@/app/(console)/_lib/problem';
import { Checkbox } from './checkbox';
import { Label } from './label';

/**
 * react-hook-form validated by a procedure's own zod input schema, so the
 * console refuses exactly what the API refuses. Omit the fields the page
 * supplies itself (path params, version):
 *
 *   const schema = createInvitationInput.omit({ networkId: true });
 *   const form = useZodForm(schema, { defaultValues: { email: '', role: 'read_only' } });
 */
export function useZodForm<S extends z.ZodType<FieldValues, FieldValues>>(
  schema: S,
  props?: Omit<UseFormProps<z.input<S>, unknown, z.output<S>>, 'resolver'>,
): UseFormReturn<z.input<S>, unknown, z.output<S>> {
  // The resolver's overloads cannot see that S is a zod 4 schema through the generic.
  const resolve = zodResolver(schema as never) as unknown as Resolver<z.input<S>, unknown, z.output<S>>;
  return useForm<z.input<S>, unknown, z.output<S>>({
    mode: 'onTouched',
    ...props,
    resolver: (values, context, options) => resolve(blankOptionalsAsUnset(schema, values), context, options),
  });
}

/**
 * An empty text input is '' — for an optional field that means "not given"
 * (the API would refuse a blank name), for a required one it stays '' so the
 * schema's own "must not be blank" message shows.
 */
function blankOptionalsAsUnset<T extends FieldValues>(schema: z.ZodType, values: T): T {
  if (!(schema instanceof z.ZodObject)) return values;
  const shape = schema.shape as Record<string, z.ZodType>;
  const cleaned: Record<string, unknown> = { ...values };
  for (const [key, value] of Object.entries(values)) {
    if (typeof value === 'string' && value.trim() === '' && shape[key]?.safeParse(undefined).success) delete cleaned[key];
  }
  return cleaned as T;
}

/**
 * A <form> that validates, calls `onSubmit` with the parsed values, and turns
 * a rejected promise into errors: the API's field errors (`errors[].path`)
 * land on the matching fields, anything else becomes the form's error
 * (shown by <FormError />). Return normally on success.
 */
export function Form<TIn extends FieldValues, TOut>({
  form,
  onSubmit,
  children,
  className,
  ...props
}: Omit<ComponentProps<'form'>, 'onSubmit'> & {
  form: UseFormReturn<TIn, unknown, TOut>;
  onSubmit: (values: TOut) => Promise<unknown> | unknown;
}) {
  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit(values);
    } catch (error) {
      const problem = problemOf(error);
      const known = new Set(Object.keys(form.getValues()));
      let placed = false;
      for (const fieldError of problem.errors ?? []) {
        const top = fieldError.path.split('.')[0] ?? '';
        if (known.has(top)) {
          form.setError(fieldError.path as Path<TIn>, { type: 'server', message: fieldError.message });
          placed = true;
        }
      }
      if (!placed) form.setError('root.server', { type: 'server', message: problemSentence(error) });
    }
  });
  return (
    // method="post": a form submitted before the page's script runs never puts its fields (a key,
    // a proof) into the URL.
    <form noValidate method="post" onSubmit={submit} className={cn('space-y-4', className)} {...props}>
      {children}
    </form>
  );
}

/** Props to spread on an input: react-hook-form's register plus id and ARIA wiring. */
export type FieldControlProps = UseFormRegisterReturn & {
  id: string;
  'aria-invalid': boolean | undefined;
  'aria-describedby': string | undefined;
};

function errorAt(errors: FieldValues, name: string): string | undefined {
  let node: unknown = errors;
  for (const part of name.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  const message = (node as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : undefined;
}

/**
 * A labelled field with its description and error:
 *
 *   <FormField form={form} name="email" label="Email">{(field) => <Input type="email" {...field} />}</FormField>
 *   <FormField form={form} name="role" label="Role">{(field) => <Select options={ROLE_OPTIONS} {...field} />}</FormField>
 *   <FormField form={form} name="price_cents" label="Price (cents)" registerOptions={{ valueAsNumber: true }}>…</FormField>
 *
 * For controlled widgets (Checkbox groups) use react-hook-form's Controller
 * and wrap them in <FieldShell>.
 */
export function FormField<TIn extends FieldValues, TOut>({
  form,
  name,
  label,
  description,
  registerOptions,
  children,
  className,
}: {
  form: UseFormReturn<TIn, unknown, TOut>;
  name: Path<TIn>;
  label: ReactNode;
  description?: ReactNode;
  registerOptions?: RegisterOptions<TIn, Path<TIn>>;
  children: (field: FieldControlProps) => ReactNode;
  className?: string;
}) {
  const id = useId();
  const error = errorAt(form.formState.errors, name);
  const describedBy = describedByOf(id, description, error);
  return (
    <FieldShell id={id} label={label} description={description} error={error} className={className}>
      {children({ ...form.register(name, registerOptions), id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
    </FieldShell>
  );
}

/** The ids of what `<FieldNotes id>` draws for a control: its `aria-describedby`. */
export function describedByOf(id: string, description: ReactNode, error: string | undefined): string | undefined {
  return [description ? `${id}-description` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
}

/** A field's description and error under it (`${id}-description`, `${id}-error`): see `describedByOf`. */
export function FieldNotes({ id, description, error }: { id: string; description?: ReactNode; error?: string }) {
  return (
    <>
      {description && (
        <p id={`${id}-description`} className="text-xs text-slate-600">
          {description}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-xs font-medium text-red-700">
          {error}
        </p>
      )}
    </>
  );
}

/** Label + control + description + error, for controls FormField cannot register. `id` must be the control's id. */
export function FieldShell({
  id,
  label,
  description,
  error,
  children,
  className,
}: {
  id: string;
  label: ReactNode;
  description?: ReactNode;
  error?: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn('space-y-1.5', className)}>
      <Label htmlFor={id}>{label}</Label>
      {children}
      <FieldNotes id={id} description={description} error={error} />
    </div>
  );
}

/**
 * A yes/no field as a checkbox with its label beside it and its description below:
 *   <CheckboxField form={form} name="competitive_separation" label="Competitive separation" description="…" />
 */
export function CheckboxField<TIn extends FieldValues, TOut>({
  form,
  name,
  label,
  description,
}: {
  form: UseFormReturn<TIn, unknown, TOut>;
  name: Path<TIn>;
  label: ReactNode;
  description?: ReactNode;
}) {
  const id = useId();
  const error = errorAt(form.formState.errors, name);
  return (
    <div className="flex items-start gap-2.5">
      <Controller
        control={form.control}
        name={name}
        render={({ field }) => (
          <Checkbox
            id={id}
            className="mt-0.5"
            checked={field.value === true}
            onCheckedChange={(checked) => field.onChange(checked === true)}
            onBlur={field.onBlur}
            aria-describedby={describedByOf(id, description, error)}
            aria-invalid={error ? true : undefined}
          />
        )}
      />
      <div className="min-w-0 space-y-0.5">
        <Label htmlFor={id}>{label}</Label>
        <FieldNotes id={id} description={description} error={error} />
      </div>
    </div>
  );
}

/** The form-level error (what the API said when it was not about one field). */
export function FormError<TIn extends FieldValues, TOut>({ form }: { form: UseFormReturn<TIn, unknown, TOut> }) {
  const message = form.formState.errors.root?.server?.message;
  if (!message) return null;
  return (
    <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
      {message}
    </p>
  );
}
