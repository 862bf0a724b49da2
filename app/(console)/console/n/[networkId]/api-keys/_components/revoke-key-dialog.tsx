'use client';

import { Trash2 } from 'lucide-react';
import { DangerAction } from '@/app/(console)/_components/ui/confirm-dialog';
import { identitySentence } from './identity';

/** "Revoke" (a quiet red text button) with its confirmation; the API's refusal is shown in the dialog. */
export function RevokeKeyDialog({ keyName, description, onRevoke }: { keyName: string; description: string; onRevoke: () => Promise<unknown> }) {
  return (
    <DangerAction
      label="Revoke"
      icon={<Trash2 aria-hidden />}
      ariaLabel={`Revoke ${keyName}`}
      title={`Revoke “${keyName}”?`}
      description={description}
      confirmLabel="Revoke key"
      action={onRevoke}
      failure={(e) => identitySentence(e, 'revoke the key')}
    />
  );
}
