import { paginate } from '@/server/http/pagination';
import { listAuditLog, type AuditRow, type AuditTargetType } from '@/server/services/audit/list-audit-log';
import { networkProcedure } from '@/server/trpc';
import { iso } from '@/server/routers/shared.types';
import { listAuditLogInput, listAuditLogOutput } from './list-audit-log.types';

function presentAuditEntry(row: AuditRow) {
  return {
    id: row.id,
    network_id: row.networkId!,
    actor_key_id: row.actorKeyId,
    action: row.action,
    target_type: row.targetType as AuditTargetType,
    target_id: row.targetId,
    data: row.data,
    occurred_at: iso(row.occurredAt),
  };
}

export const listAuditLogRoute = networkProcedure('administrator')
  .meta({
    openapi: {
      method: 'GET',
      path: '/networks/{networkId}/audit-log',
      tags: ['audit'],
      summary: 'The network’s audit log (administrators)',
      description:
        'Who changed what in this network (keys, members, invitations, service accounts), oldest first (ordered by id). ' +
        'Filters `action`, `target_type` and `target_id` combine with the cursor.',
      protect: true,
    },
  })
  .input(listAuditLogInput)
  .output(listAuditLogOutput)
  .query(({ ctx, input }) => {
    const filter = { action: input.action, targetType: input.target_type, targetId: input.target_id };
    // The cursor belongs to this network and these filters; JSON keeps the parts unambiguous.
    const scope = `audit-log:${JSON.stringify([input.networkId, filter.action ?? null, filter.targetType ?? null, filter.targetId ?? null])}`;
    return paginate(
      input,
      scope,
      (after, take) => listAuditLog({ db: ctx.db, networkId: input.networkId, filter, afterId: after, take }),
      presentAuditEntry,
    );
  });
