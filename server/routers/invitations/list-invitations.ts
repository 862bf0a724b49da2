import { paginate } from '@/server/http/pagination';
import { listInvitations } from '@/server/services/invitations/find-invitations';
import { networkProcedure } from '@/server/trpc';
import { presentInvitation } from './invitation.types';
import { listInvitationsInput, listInvitationsOutput } from './list-invitations.types';

export const listInvitationsRoute = networkProcedure('administrator')
  .meta({
    openapi: {
      method: 'GET',
      path: '/networks/{networkId}/invitations',
      tags: ['invitations'],
      summary: 'List the network’s invitations',
      description: 'Administrators only (invitations name people who are not members). Ordered by id; filter by `status`.',
      protect: true,
    },
  })
  .input(listInvitationsInput)
  .output(listInvitationsOutput)
  .query(({ ctx, input }) =>
    paginate(
      input,
      `invitations:${input.networkId}:${input.status ?? ''}`,
      (after, take) => listInvitations({ db: ctx.db, networkId: input.networkId, filter: { status: input.status }, afterId: after, take }),
      presentInvitation,
    ),
  );
