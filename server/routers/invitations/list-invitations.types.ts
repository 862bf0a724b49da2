import { z } from 'zod';
import { listParams, pageOf } from '@/server/http/page';
import { networkParam } from '@/server/routers/shared.types';
import { invitationSchema, invitationStatusSchema } from './invitation.types';

export const listInvitationsInput = z.strictObject({
  ...networkParam,
  ...listParams,
  status: invitationStatusSchema.optional().meta({ description: 'Only invitations in this state (default: all).' }),
});

export const listInvitationsOutput = pageOf(invitationSchema).meta({ id: 'InvitationList' });
