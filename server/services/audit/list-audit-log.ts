import { eq, type SQL } from 'drizzle-orm';
import { auditLog } from '@/db/schema';
import type { AuditEntry } from './record-audit';
import { networkPage, type NetworkPage } from '@/server/services/page';

export type AuditRow = typeof auditLog.$inferSelect;
export type AuditTargetType = AuditEntry['targetType'];

export { AUDIT_TARGET_TYPES } from './target-types';

export interface AuditFilter {
  action?: string | undefined;
  targetType?: AuditTargetType | undefined;
  targetId?: string | undefined;
}

/** A network's audit rows matching the filter, in id (= creation) order, after `afterId`. */
export async function listAuditLog({ filter, ...page }: NetworkPage & { filter: AuditFilter }) {
  const conditions: SQL[] = [];
  if (filter.action) conditions.push(eq(auditLog.action, filter.action));
  if (filter.targetType) conditions.push(eq(auditLog.targetType, filter.targetType));
  if (filter.targetId) conditions.push(eq(auditLog.targetId, filter.targetId));
  return networkPage(auditLog, page, conditions);
}
