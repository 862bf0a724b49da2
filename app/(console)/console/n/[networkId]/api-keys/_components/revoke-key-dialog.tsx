'use client';

import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/app/(console)/_components/ui/button';
import { ConfirmDialog } from '@/app/(console)/_components/ui/confirm-dialog';
import { identitySentence } from './identity';

/** "Revoke" (a quiet red text button) with its confirmation; the API's refusal is shown in the dialog. */
export function RevokeKeyDialog({ keyName, description, onRevoke }: { keyName: string; description: string; onRevoke: () => Promise<unknown> }) {
  const [error, setError] = useState<string | null>(null);
  return (
    <ConfirmDialog
      trigger={
        <Button variant="ghost" size="sm" className="text-red-700 hover:bg-red-50" aria-label={`Revoke ${keyName}`} onClick={() => setError(null)}>
          <Trash2 aria-hidden /> Revoke
        </Button>
      }
      title={`Revoke “${keyName}”?`}
      description={description}
      confirmLabel="Revoke key"
      error={error}
      onConfirm={async () => {
        setError(null);
        try {
          await onRevoke();
        } catch (e) {
          setError(identitySentence(e, 'revoke the key'));
          throw e;
        }
      }}
    />
  );
}
