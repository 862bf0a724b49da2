'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { RefreshCw } from 'lucide-react';
import { rotateNetworkKeyInput } from '@/server/routers/keys/rotate-network-key.types';
import { TriggeredFormDialog } from '@/app/(console)/_components/form-dialog';
import { SecretDialog } from '@/app/(console)/_components/secret-dialog';
import { Button } from '@/app/(console)/_components/ui/button';
import { FormField, useZodForm } from '@/app/(console)/_components/ui/form';
import { Select } from '@/app/(console)/_components/ui/select';
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
  const queryClient = useQueryClient();
  const rotate = useMutation(
    trpc.keys.rotateForNetwork.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.keys.pathKey() }) }),
  );
  const form = useZodForm(rotateForm, { defaultValues: { grace_period_seconds: 0 } });
  return (
    <TriggeredFormDialog
      trigger={
        <Button variant="secondary" size="sm" aria-label={`Rotate ${keyName}`}>
          <RefreshCw aria-hidden /> Rotate
        </Button>
      }
      title={`Rotate “${keyName}”`}
      description="A new key replaces this one, with the same owner, name, role and expiry. Its token is shown once."
      form={form}
      submitLabel="Rotate key"
      onSubmit={async (values) => {
        const created = await rotate.mutateAsync({ networkId, keyId, grace_period_seconds: values.grace_period_seconds });
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
    </TriggeredFormDialog>
  );
}

/** The replacement token, once. */
export function RotatedKeyReveal({ rotated, onClose }: { rotated: RotatedKey | null; onClose: () => void }) {
  return (
    <SecretDialog
      secret={rotated?.token ?? null}
      title="Key rotated"
      label="New API key"
      description={rotated ? `The replacement for “${rotated.keyName}”, listed by its start ${rotated.start}.` : undefined}
      note="Switch whatever used the old token to this one before the grace period ends."
      onClose={onClose}
    />
  );
}
