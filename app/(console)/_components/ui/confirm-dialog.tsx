'use client';

import { AlertDialog } from 'radix-ui';
import { useState, type ReactNode } from 'react';
import { Button } from './button';
import { overlayClasses, panelClasses } from './dialog';
import { cn } from '@/app/(console)/_lib/cn';

export interface ConfirmDialogProps {
  /** The element that opens the dialog (a Button). */
  trigger: ReactNode;
  title: ReactNode;
  description: ReactNode;
  /** Label of the confirming button, e.g. "Revoke key". */
  confirmLabel: string;
  /** Red confirming button (default true: confirmations are usually for destructive actions). */
  destructive?: boolean;
  /**
   * Runs on confirm. The dialog stays open with a spinner until it settles; it
   * closes when the promise resolves and stays open when it rejects (show the
   * error with a toast or `error`).
   */
  onConfirm: () => Promise<unknown> | void;
  /** An error sentence to show inside the dialog (e.g. problemSentence(mutation.error)). */
  error?: ReactNode;
}

/** "Are you sure?" for revoke / remove / delete. Keyboard: focus starts on Cancel. */
export function ConfirmDialog({ trigger, title, description, confirmLabel, destructive = true, onConfirm, error }: ConfirmDialogProps) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  async function confirm() {
    setBusy(true);
    try {
      await onConfirm();
      setOpen(false);
    } catch {
      // stays open; the caller shows the error
    } finally {
      setBusy(false);
    }
  }
  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => !busy && setOpen(next)}>
      <AlertDialog.Trigger asChild>{trigger}</AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={overlayClasses} />
        <AlertDialog.Content className={cn(panelClasses, 'max-w-md')}>
          <AlertDialog.Title className="text-lg font-semibold text-slate-900">{title}</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm text-slate-600">{description}</AlertDialog.Description>
          {error && (
            <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
              {error}
            </p>
          )}
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel asChild>
              <Button variant="secondary" disabled={busy}>
                Cancel
              </Button>
            </AlertDialog.Cancel>
            <Button variant={destructive ? 'danger' : 'primary'} loading={busy} onClick={confirm}>
              {confirmLabel}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

export interface DangerActionProps {
  /** The button's words ("Revoke") and icon, and its accessible name ("Revoke Ops key"). */
  label: string;
  icon: ReactNode;
  ariaLabel: string;
  title: ReactNode;
  description: ReactNode;
  confirmLabel: string;
  /** Runs on confirm; a rejection keeps the dialog open with `failure`'s sentence for it. */
  action: () => Promise<unknown>;
  failure: (error: unknown) => string;
}

/** A quiet red row action (revoke, remove, delete) with its confirmation; the API's refusal is shown in the dialog. */
export function DangerAction({ label, icon, ariaLabel, title, description, confirmLabel, action, failure }: DangerActionProps) {
  const [error, setError] = useState<string | null>(null);
  return (
    <ConfirmDialog
      trigger={
        <Button variant="ghost" size="sm" className="text-red-700 hover:bg-red-50" aria-label={ariaLabel} onClick={() => setError(null)}>
          {icon} {label}
        </Button>
      }
      title={title}
      description={description}
      confirmLabel={confirmLabel}
      error={error}
      onConfirm={async () => {
        setError(null);
        try {
          await action();
        } catch (e) {
          setError(failure(e));
          throw e;
        }
      }}
    />
  );
}
