import { z } from 'zod';
import type { MemberRecord } from '@/server/services/members/find-members';
import { idField, iso, networkParam, roleSchema, versionedFields } from '@/server/routers/shared.types';

/** Path parameters of a member route. */
export const memberParams = {
  ...networkParam,
  memberId: z.string().min(1).meta({ description: 'Member id (mem_…).' }),
};

export const memberStatusSchema = z.enum(['active', 'removed']);

export const memberSchema = z
  .object({
    id: z.string().meta({ example: 'mem_01jd8x6v2c9q7r5t3w1y0zabcd' }),
    network_id: idField('net'),
    user: z.object({ id: z.string(), email: z.string().nullable(), name: z.string() }),
    role: roleSchema,
    status: memberStatusSchema.meta({ description: 'active → removed. A removed member’s keys no longer reach this network.' }),
    ...versionedFields,
  })
  .meta({ id: 'Member' });

export type Member = z.infer<typeof memberSchema>;

export function presentMember({ membership, user }: MemberRecord): Member {
  return {
    id: membership.id,
    network_id: membership.networkId,
    user: { id: user.id, email: user.email, name: user.name },
    role: membership.role,
    status: membership.status,
    version: membership.version,
    created_at: iso(membership.createdAt),
    updated_at: iso(membership.updatedAt),
  };
}
