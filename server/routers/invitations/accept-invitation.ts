import { bearerToken } from '../../auth/principal';
import { config } from '../../config';
import { AppError } from '../../errors';
import { currentLimits } from '../../http/limits';
import { acceptInvitation as acceptWithToken } from '../../services/invitations/accept-invitation';
import { publicProcedure } from '../../trpc';
import { presentApiKey } from '../keys/api-key.types';
import { presentMember } from '../members/member.types';
import { acceptedInvitationSchema, acceptInvitationInput } from './accept-invitation.types';

export const acceptInvitation = publicProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/invitations/accept',
      tags: ['invitations'],
      summary: 'Accept an invitation',
      description:
        'Authenticated by the invitation token itself: `Authorization: Bearer inv_…` (not an API key). Creates your membership ' +
        '(and your user, if the email is new) and answers 201 with `member` and your first `api_key`, token included, once. ' +
        'Unknown or malformed token → 401 (counts against the failed-authentication limit); revoked, already accepted or expired → 409.',
      protect: true,
      successDescription: 'Created',
    },
  })
  .input(acceptInvitationInput)
  .output(acceptedInvitationSchema)
  .mutation(async ({ ctx, input }) => {
    const limits = currentLimits();
    const addressKey = `auth-fail:${ctx.clientAddress}`;
    if (limits?.authFailures.exhausted(addressKey)) {
      throw new AppError('rate-limited', 'Too many failed authentication attempts from this address. Wait and retry.', {
        headers: { 'Retry-After': String(limits.authFailures.consume(addressKey).retryAfterSeconds) },
      });
    }
    const authorization = ctx.header('authorization');
    let accepted;
    try {
      accepted = await ctx.db.transaction((tx) =>
        acceptWithToken(tx, {
          token: authorization ? (bearerToken(authorization) ?? '') : undefined,
          name: input.name,
          keyName: input.key_name,
          environment: config().APP_ENV,
        }),
      );
    } catch (error) {
      if (error instanceof AppError && error.kind === 'unauthorized') limits?.authFailures.consume(addressKey);
      throw error;
    }
    ctx.http.status = 201;
    return { member: presentMember(accepted.member), api_key: { ...presentApiKey(accepted.key, accepted.scopes), token: accepted.token } };
  });
