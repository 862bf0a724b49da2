import { and, asc, eq, gt, type SQL } from 'drizzle-orm';
import { auditLog } from '@/db/schema';
import type { AuditEntry } from './record-audit';
import type { NetworkPage } from '@/server/services/page';

export type AuditRow = typeof auditLog.$inferSelect;
export type AuditTargetType = AuditEntry['targetType'];

export { AUDIT_TARGET_TYPES } from './target-types';

export interface AuditFilter {
  action?: string | undefined;
  targetType?: AuditTargetType | undefined;
  targetId?: string | undefined;
}

/** A network's audit rows matching the filter, in id (= creation) order, after `afterId`. */
export async function listAuditLog({ db, networkId, filter, afterId, take }: NetworkPage & { filter: AuditFilter }) {
  const conditions: SQL[] = [eq(auditLog.networkId, networkId)];
  if (filter.action) conditions.push(eq(auditLog.action, filter.action));
  if (filter.targetType) conditions.push(eq(auditLog.targetType, filter.targetType));
  if (filter.targetId) conditions.push(eq(auditLog.targetId, filter.targetId));
  if (afterId) conditions.push(gt(auditLog.id, afterId));
  return db
    .select()
    .from(auditLog)
    .where(and(...conditions))
    .orderBy(asc(auditLog.id))
    .limit(take);
}
