import { z } from 'zod';
import { listParams, orderParam, pageOf } from '@/server/http/page';
import { AUDIT_TARGET_TYPES } from '@/server/services/audit/target-types';
import { idField, networkParam, sinceNotAfterUntil, textFilter, timeRange, timestamp } from '@/server/routers/shared.types';

export const auditTargetTypeSchema = z.enum(AUDIT_TARGET_TYPES).meta({ id: 'AuditTargetType' });

export const auditEntrySchema = z
  .object({
    id: z.string().meta({ example: 'aud_01jd8x6v2c9q7r5t3w1y0zabcd' }),
    network_id: idField('net'),
    actor_key_id: z.string().nullable().meta({ description: 'The API key that made the change; null for an invitation token or the system.' }),
    action: z.string().meta({ example: 'service_account.created', description: '`<target>.<verb>`.' }),
    target_type: auditTargetTypeSchema,
    target_id: z.string(),
    data: z.record(z.string(), z.unknown()).meta({ description: 'What changed. Never a token or secret.' }),
    occurred_at: timestamp,
  })
  .meta({ id: 'AuditEntry' });

export const listAuditLogInput = z
  .strictObject({
    ...networkParam,
    ...listParams,
    action: textFilter('action', 'Only rows with this action, e.g. api_key.revoked.'),
    target_type: auditTargetTypeSchema.optional().meta({ description: 'Only rows about this kind of resource.' }),
    target_id: textFilter('target_id', 'Only rows about this resource.'),
    actor_key_id: textFilter('actor_key_id', 'Only changes made with this API key.'),
    ...timeRange('changes made'),
    ...orderParam,
  })
  .refine(...sinceNotAfterUntil);

export const listAuditLogOutput = pageOf(auditEntrySchema).meta({ id: 'AuditEntryList' });
