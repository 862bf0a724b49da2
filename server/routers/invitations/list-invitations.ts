import { paginate } from '../../http/pagination';
import { listInvitations as findInvitations } from '../../services/invitations/find-invitations';
import { networkProcedure } from '../../trpc';
import { presentInvitation } from './invitation.types';
import { listInvitationsInput, listInvitationsOutput } from './list-invitations.types';

export const listInvitations = networkProcedure('administrator')
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
      (after, take) => findInvitations(ctx.db, input.networkId, { status: input.status }, after, take),
      presentInvitation,
    ),
  );
