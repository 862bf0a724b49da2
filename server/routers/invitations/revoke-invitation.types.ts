import { z } from 'zod';
import { networkParam } from '@/server/routers/shared.types';

export const revokeInvitationInput = z.strictObject({
  ...networkParam,
  invitationId: z.string().min(1).meta({ description: 'Invitation id (ivt_…).' }),
});
