import { z } from 'zod';
import { listParams, pageOf } from '@/server/http/page';
import { networkParam } from '@/server/routers/shared.types';
import { memberSchema, memberStatusSchema } from './member.types';

export const listMembersInput = z.strictObject({
  ...networkParam,
  ...listParams,
  status: memberStatusSchema.default('active').meta({ description: 'Only members in this state (default active).' }),
});

export const listMembersOutput = pageOf(memberSchema).meta({ id: 'MemberList' });
