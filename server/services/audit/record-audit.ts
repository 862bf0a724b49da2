import type { Tx } from '@/db/client';
import { newId } from '@/db/ids';
import { auditLog } from '@/db/schema';

export interface AuditEntry {
  /** The network the change belongs to; null for changes outside any network. */
  networkId: string | null;
  /** The API key that made the change (null for the invitation token or the system). */
  actorKeyId: string | null;
  /** `<target>.<verb>`, e.g. `api_key.created`, `member.role_changed`. */
  action: string;
  targetType: 'api_key' | 'member' | 'invitation' | 'service_account' | 'webhook' | 'network' | 'voice_consent' | 'creative';
  targetId: string;
  /** What changed, client-facing; never a token or secret. */
  data?: Record<string, unknown>;
}

/** Write an audit row on the transaction of the change it describes. */
export async function recordAudit({ tx, ...entry }: { tx: Tx } & AuditEntry): Promise<void> {
  await tx.insert(auditLog).values({ id: newId('auditEntry'), ...entry, data: entry.data ?? {} });
}
