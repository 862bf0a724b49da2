import { eq, gte, lte, type SQL } from 'drizzle-orm';
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
  /** The API key that made the change. */
  actorKeyId?: string | undefined;
  since?: Date | undefined;
  until?: Date | undefined;
}

/** A network's audit rows matching the filter, in id (= creation) order or its reverse, after `afterId`. */
export async function listAuditLog({ filter, ...page }: NetworkPage & { filter: AuditFilter }) {
  const conditions: SQL[] = [];
  if (filter.action) conditions.push(eq(auditLog.action, filter.action));
  if (filter.targetType) conditions.push(eq(auditLog.targetType, filter.targetType));
  if (filter.targetId) conditions.push(eq(auditLog.targetId, filter.targetId));
  if (filter.actorKeyId) conditions.push(eq(auditLog.actorKeyId, filter.actorKeyId));
  if (filter.since) conditions.push(gte(auditLog.occurredAt, filter.since));
  if (filter.until) conditions.push(lte(auditLog.occurredAt, filter.until));
  return networkPage(auditLog, page, conditions);
}
