'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { rotateNetworkKeyInput } from '@/server/routers/keys/rotate-network-key.types';
import { Button } from '@/app/(console)/_components/ui/button';
import { Dialog, DialogContent, DialogFooter, DialogTrigger } from '@/app/(console)/_components/ui/dialog';
import { Form, FormError, FormField, useZodForm } from '@/app/(console)/_components/ui/form';
import { Select } from '@/app/(console)/_components/ui/select';
import { SecretReveal } from '@/app/(console)/_components/ui/secret-reveal';
import { useTRPC } from '@/app/(console)/_lib/trpc';

const GRACE_OPTIONS = [
  { value: '0', label: 'Stop the old token now' },
  { value: '3600', label: 'Keep the old token working for 1 hour' },
  { value: '86400', label: 'Keep the old token working for 1 day' },
  { value: '604800', label: 'Keep the old token working for 7 days (the most)' },
];

const rotateForm = rotateNetworkKeyInput.omit({ networkId: true, keyId: true });

export interface RotatedKey {
  token: string;
  start: string;
  keyName: string;
}

/**
 * Rotate: a replacement key (same owner, name, role, expiry); the old one stops
 * after the grace period. The row holding this dialog disappears once the list
 * refreshes, so the new token is shown by the page: <RotatedKeyReveal>.
 */
export function RotateKeyDialog({
  networkId,
  keyId,
  keyName,
  onRotated,
}: {
  networkId: string;
  keyId: string;
  keyName: string;
  onRotated: (rotated: RotatedKey) => void;
}) {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  const rotate = useMutation(
    trpc.keys.rotateForNetwork.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.keys.pathKey() }) }),
  );
  const form = useZodForm(rotateForm, { defaultValues: { grace_period_seconds: 0 } });
  return (
    <>
      <Dialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) form.reset();
        }}
      >
        <DialogTrigger asChild>
          <Button variant="secondary" size="sm" aria-label={`Rotate ${keyName}`}>
            <RefreshCw aria-hidden /> Rotate
          </Button>
        </DialogTrigger>
        <DialogContent
          title={`Rotate “${keyName}”`}
          description="A new key replaces this one, with the same owner, name, role and expiry. Its token is shown once."
        >
          <Form
            form={form}
            onSubmit={async (values) => {
              const created = await rotate.mutateAsync({ networkId, keyId, grace_period_seconds: values.grace_period_seconds });
              setOpen(false);
              form.reset();
              onRotated({ token: created.token, start: created.start, keyName });
            }}
          >
            <FormField
              form={form}
              name="grace_period_seconds"
              label="Grace period"
              description="While it lasts, both tokens work, so programs using the old one can switch without downtime. Then the old one is refused."
              registerOptions={{ valueAsNumber: true }}
            >
              {(field) => <Select options={GRACE_OPTIONS} {...field} />}
            </FormField>
            <FormError form={form} />
            <DialogFooter>
              <Button type="button" variant="secondary" onClick={() => setOpen(false)}>
                Cancel
              </Button>
              <Button type="submit" loading={form.formState.isSubmitting}>
                Rotate key
              </Button>
            </DialogFooter>
          </Form>
        </DialogContent>
      </Dialog>
    </>
  );
}

/** The replacement token, once. */
export function RotatedKeyReveal({ rotated, onClose }: { rotated: RotatedKey | null; onClose: () => void }) {
  return (
    <SecretReveal
      secret={rotated?.token ?? null}
      title="Key rotated"
      label="New API key"
      description={rotated ? `The replacement for “${rotated.keyName}”, listed by its start ${rotated.start}.` : undefined}
      onClose={onClose}
    >
      <p className="mt-3 text-sm text-slate-600">Switch whatever used the old token to this one before the grace period ends.</p>
    </SecretReveal>
  );
}
