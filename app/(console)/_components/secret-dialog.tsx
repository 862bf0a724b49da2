'use client';

import { Check, Copy, TriangleAlert } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { Button } from '@/app/(console)/_components/ui/button';
import { Dialog, DialogContent, DialogFooter } from '@/app/(console)/_components/ui/dialog';

/**
 * A new credential shown exactly once — an API key just minted, rotated or made with a service
 * account, an invitation link, a webhook's signing secret — in a read-only field with a copy
 * button, under "it cannot be shown again", and closed with "I have copied it". Keep the secret
 * only in component state and drop it on close (`onClose` → set it to null); never log it.
 *
 *   <SecretDialog secret={minted?.token ?? null} title="API key minted" label="API key"
 *     note="Give it to its owner over a safe channel." onClose={() => setMinted(null)} />
 */
export function SecretDialog({
  secret,
  title,
  label = 'Secret',
  description,
  note,
  onClose,
}: {
  /** null keeps the dialog closed. */
  secret: string | null;
  title: ReactNode;
  /** What the secret is, e.g. "API key" or "Signing secret": the field's label. */
  label?: string;
  description?: ReactNode;
  /** What to do with it, a sentence under the field (e.g. "Put it in the program’s secret store."). */
  note?: ReactNode;
  onClose: () => void;
}) {
  const [copied, setCopied] = useState(false);
  const inputId = useId();
  async function copy() {
    if (!secret) return;
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      // Clipboard refused (insecure context): the value is selectable in the field.
      setCopied(false);
    }
  }
  return (
    <Dialog
      open={secret !== null}
      onOpenChange={(open) => {
        if (!open) {
          setCopied(false);
          onClose();
        }
      }}
    >
      {secret !== null && (
        <DialogContent title={title} description={description}>
          <div className="flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900" role="note">
            <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
            <p>Copy it now and keep it somewhere safe: it cannot be shown again.</p>
          </div>
          <label className="mt-4 block text-sm font-medium text-slate-800" htmlFor={inputId}>
            {label}
          </label>
          <div className="mt-1 flex gap-2">
            <input
              id={inputId}
              readOnly
              value={secret}
              onFocus={(event) => event.currentTarget.select()}
              className="h-9 min-w-0 flex-1 rounded-md border border-slate-300 bg-slate-50 px-3 font-mono text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
              spellCheck={false}
              autoComplete="off"
              data-secret
            />
            <Button variant="secondary" onClick={copy}>
              {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
              <span aria-live="polite">{copied ? 'Copied' : 'Copy'}</span>
            </Button>
          </div>
          {note && <p className="mt-3 text-sm text-slate-600">{note}</p>}
          <DialogFooter>
            <Button onClick={onClose}>I have copied it</Button>
          </DialogFooter>
        </DialogContent>
      )}
    </Dialog>
  );
}
