import { and, asc, eq, gt, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../../db/client';
import { auditLog } from '../../../db/schema';
import type { AuditEntry } from './record-audit';

export type AuditRow = typeof auditLog.$inferSelect;
export type AuditTargetType = AuditEntry['targetType'];

// A Record so that the compiler insists on every target type `recordAudit` can write.
const TARGET_TYPES: Record<AuditTargetType, true> = {
  api_key: true,
  member: true,
  invitation: true,
  service_account: true,
  webhook: true,
  network: true,
};
export const AUDIT_TARGET_TYPES = Object.keys(TARGET_TYPES) as [AuditTargetType, ...AuditTargetType[]];

export interface AuditFilter {
  action?: string | undefined;
  targetType?: AuditTargetType | undefined;
  targetId?: string | undefined;
}

/** A network's audit rows matching the filter, in id (= creation) order, after `afterId`. */
export async function listAuditLog(db: Queryable, networkId: string, filter: AuditFilter, afterId: string | undefined, take: number) {
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
