import { paginate } from '@/server/http/pagination';
import { listAuditLog, type AuditRow, type AuditTargetType } from '@/server/services/audit/list-audit-log';
import { networkProcedure } from '@/server/trpc';
import { iso, timeWindow } from '@/server/routers/shared.types';
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
        'Who changed what in this network (keys, members, invitations, service accounts, webhooks), oldest first (ordered by id; `order=desc`: newest first). ' +
        'Filters `action`, `target_type`, `target_id`, `actor_key_id` and the time window (`since`, `until`, inclusive) combine with the cursor.',
      protect: true,
    },
  })
  .input(listAuditLogInput)
  .output(listAuditLogOutput)
  .query(({ ctx, input }) => {
    const window = timeWindow(input);
    const filter = {
      action: input.action,
      targetType: input.target_type,
      targetId: input.target_id,
      actorKeyId: input.actor_key_id,
      since: window.since,
      until: window.until,
    };
    // The cursor belongs to this network, these filters and this order; JSON keeps the parts unambiguous.
    const scope = `audit-log:${JSON.stringify([input.networkId, input.action ?? null, input.target_type ?? null, input.target_id ?? null, input.actor_key_id ?? null, window.scope, input.order])}`;
    return paginate(
      input,
      scope,
      (after, take) => listAuditLog({ db: ctx.db, networkId: input.networkId, filter, afterId: after, take, order: input.order }),
      presentAuditEntry,
    );
  });
