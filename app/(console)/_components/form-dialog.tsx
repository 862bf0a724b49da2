'use client';

import { useState, type ReactNode } from 'react';
import type { DefaultValues, FieldValues, UseFormReturn } from 'react-hook-form';
import { Button } from '@/app/(console)/_components/ui/button';
import { Dialog, DialogContent, DialogFooter, DialogTrigger } from '@/app/(console)/_components/ui/dialog';
import type { z } from 'zod';
import { Form, FormError, useZodForm } from '@/app/(console)/_components/ui/form';

interface DialogFormProps<TIn extends FieldValues, TOut> {
  /** From `useZodForm`. */
  form: UseFormReturn<TIn, unknown, TOut>;
  /** As `<Form onSubmit>`: a rejection shows on the fields or in the form's error; close the dialog yourself on success. */
  onSubmit: (values: TOut) => Promise<unknown> | unknown;
  /** The submit button's label, e.g. "Create advertiser". */
  submitLabel: string;
  /** `danger` for a submit that destroys or refuses (e.g. "Reject offer"). */
  submitVariant?: 'primary' | 'danger';
  /** What "Cancel" does. */
  onCancel: () => void;
  /** The fields (and anything else that belongs above the form's error). */
  children: ReactNode;
}

/**
 * The inside of a form dialog: the fields, the form's error (`<FormError>`), then "Cancel" and the
 * submit button (spinning while it submits). `FormDialog` draws it in its dialog; use it alone only
 * where the dialog is drawn elsewhere — a form loaded when its dialog opens
 * (`shell/create-network-form.tsx`), or one with state that must start afresh at every opening.
 */
export function DialogForm<TIn extends FieldValues, TOut>({
  form,
  onSubmit,
  submitLabel,
  submitVariant,
  onCancel,
  children,
}: DialogFormProps<TIn, TOut>) {
  return (
    <Form form={form} onSubmit={onSubmit}>
      {children}
      <FormError form={form} />
      <DialogFooter>
        <Button type="button" variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" variant={submitVariant} loading={form.formState.isSubmitting}>
          {submitLabel}
        </Button>
      </DialogFooter>
    </Form>
  );
}

/**
 * A form in a modal dialog: the title (its accessible name), an optional description, the fields,
 * the form's error, and "Cancel" + the submit button — create and edit dialogs all over the console.
 *
 *   const form = useZodForm(createSchema, { defaultValues: { name: '' } });
 *   <FormDialog open={open} onOpenChange={setOpen} title="New podcast" form={form} submitLabel="Add podcast"
 *     onSubmit={async (values) => { await create.mutateAsync({ ...values, networkId }); setOpen(false); }}>
 *     <FormField form={form} name="name" label="Podcast name">{(field) => <Input {...field} />}</FormField>
 *   </FormDialog>
 *
 * The dialog is controlled: Escape, the close button, a click outside and "Cancel" all call
 * `onOpenChange(false)`. The form is reset where the caller says: in `onSubmit`, in its own
 * `onOpenChange`, or with `resetOnDismiss`. With `trigger` (a Button) the dialog opens from it and
 * gives it the focus back when it closes.
 */
export function FormDialog<TIn extends FieldValues, TOut>({
  open,
  onOpenChange,
  resetOnDismiss = false,
  trigger,
  title,
  description,
  className,
  ...formProps
}: Omit<DialogFormProps<TIn, TOut>, 'onCancel'> & {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Escape, the close button and a click outside also reset the form; "Cancel" only closes it. */
  resetOnDismiss?: boolean;
  /** The element that opens the dialog; without it the page opens it by setting `open`. */
  trigger?: ReactNode;
  title: ReactNode;
  description?: ReactNode;
  /** Classes for the panel, e.g. `max-w-2xl` for a wide form. */
  className?: string;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next && resetOnDismiss) formProps.form.reset();
        onOpenChange(next);
      }}
    >
      {trigger && <DialogTrigger asChild>{trigger}</DialogTrigger>}
      <DialogContent title={title} description={description} className={className}>
        <DialogForm {...formProps} onCancel={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

/**
 * A `FormDialog` that opens from its `trigger` and keeps its own open state: Escape, × and a click
 * outside reset the form ("Cancel" keeps what was typed), and once `onSubmit` succeeds it closes and
 * the form starts afresh. What was made (a new key, an invitation link) is for `onSubmit` to keep,
 * typically for a `SecretDialog` beside it.
 */
export function TriggeredFormDialog<TIn extends FieldValues, TOut>({
  onSubmit,
  ...props
}: Omit<Parameters<typeof FormDialog<TIn, TOut>>[0], 'open' | 'onOpenChange' | 'resetOnDismiss' | 'trigger'> & {
  trigger: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  return (
    <FormDialog
      {...props}
      open={open}
      onOpenChange={setOpen}
      resetOnDismiss
      onSubmit={async (values) => {
        await onSubmit(values);
        setOpen(false);
        props.form.reset();
      }}
    />
  );
}

/**
 * The form of a dialog its page opens, starting afresh at every closing: `useZodForm(schema)` with
 * `defaults`, the `FormDialog`'s `open`, `onOpenChange` and `form` (spread them: "Cancel", Escape, ×
 * and a click outside reset it), and `close`, for `onSubmit` once it succeeds. The form goes back to
 * `defaults` as they are when it closes (a page's filter may have changed them since it was made).
 */
export function useFormResetOnClose<S extends z.ZodType<FieldValues, FieldValues>>(
  schema: S,
  defaults: DefaultValues<z.input<S>>,
  { open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void },
) {
  const form = useZodForm(schema, { defaultValues: defaults });
  const close = () => {
    form.reset(defaults);
    onOpenChange(false);
  };
  return { form, close, dialogProps: { open, onOpenChange: (next: boolean) => (next ? onOpenChange(true) : close()), form } };
}

/**
 * A row's edit form, drawn by its page while that row is being edited: titled "Edit <name>", submitted
 * with "Save changes"; Escape, ×, a click outside and "Cancel" call `onClose` (the page stops editing).
 */
export function EditFormDialog<TIn extends FieldValues, TOut>({
  name,
  onClose,
  ...props
}: Omit<Parameters<typeof FormDialog<TIn, TOut>>[0], 'open' | 'onOpenChange' | 'title' | 'submitLabel'> & {
  /** The row's name, in the title. */
  name: string;
  onClose: () => void;
}) {
  return <FormDialog {...props} open onOpenChange={(open) => !open && onClose()} title={`Edit ${name}`} submitLabel="Save changes" />;
}
