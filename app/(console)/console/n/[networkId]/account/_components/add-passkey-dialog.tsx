'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Fingerprint } from 'lucide-react';
import { useState } from 'react';
import { registerPasskeyInput } from '@/server/routers/passkeys/passkeys.types';
import { FormDialog } from '@/app/(console)/_components/form-dialog';
import { Button } from '@/app/(console)/_components/ui/button';
import { FormField, useZodForm } from '@/app/(console)/_components/ui/form';
import { Input } from '@/app/(console)/_components/ui/input';
import { toast } from '@/app/(console)/_components/ui/toaster';
import { browserPasskeyFailure, browserSupportsWebAuthn, defaultPasskeyName, makePasskey, rpIdOf } from '@/app/(console)/_lib/passkeys';
import { useTRPC } from '@/app/(console)/_lib/trpc';

const nameInput = registerPasskeyInput.pick({ name: true });

/**
 * "Add a passkey": asks a name (where it was made, by default), then the API's creation options
 * (`POST /v1/me/passkeys/options`), the browser's prompt, and registers what the browser made
 * (`POST /v1/me/passkeys`). A closed prompt leaves the dialog open with a quiet note, not an error.
 * `disabledReason` (the person has as many passkeys as allowed) disables the button and says why.
 */
export function AddPasskeyDialog({ disabledReason }: { disabledReason?: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  // The page renders in the browser only (RequireSession): navigator is there.
  const [supported] = useState(browserSupportsWebAuthn);
  const form = useZodForm(nameInput, { defaultValues: { name: defaultPasskeyName() } });
  const options = useMutation(trpc.passkeys.registrationOptions.mutationOptions());
  const register = useMutation(
    trpc.passkeys.register.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.passkeys.pathKey() }) }),
  );
  const reason = supported ? disabledReason : 'This browser cannot make passkeys.';

  return (
    <div className="flex flex-col items-start gap-1.5 sm:items-end">
      <FormDialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) {
            setNote(null);
            form.reset({ name: defaultPasskeyName() });
          }
        }}
        trigger={
          <Button disabled={reason !== undefined} aria-describedby={reason ? 'add-passkey-unavailable' : undefined}>
            <Fingerprint aria-hidden /> Add a passkey
          </Button>
        }
        title="Add a passkey"
        description="Your browser will ask you to make it, with your device’s screen lock or a security key. Name it so you can tell it apart later."
        form={form}
        submitLabel="Continue"
        onSubmit={async ({ name }) => {
          setNote(null);
          const challenge = await options.mutateAsync({});
          let response;
          try {
            response = await makePasskey(challenge.options);
          } catch (caught) {
            const failure = browserPasskeyFailure(caught, rpIdOf(challenge.options));
            if (failure?.cancelled) return setNote(`${failure.message} Nothing was added.`);
            throw failure ? new Error(failure.message) : caught;
          }
          const passkey = await register.mutateAsync({ challenge_id: challenge.challenge_id, name, response });
          toast.success(`Passkey “${passkey.name}” added: it signs you in from now on.`);
          setOpen(false);
          form.reset({ name: defaultPasskeyName() });
        }}
      >
        <FormField form={form} name="name" label="Name" description="Where it lives, for example “Work laptop” or “Phone”.">
          {(field) => <Input autoComplete="off" maxLength={100} {...field} />}
        </FormField>
        {note && (
          <p role="status" className="text-sm text-slate-600">
            {note}
          </p>
        )}
      </FormDialog>
      {reason && (
        <p id="add-passkey-unavailable" className="max-w-xs text-xs text-slate-600 sm:text-right">
          {reason}
        </p>
      )}
    </div>
  );
}
