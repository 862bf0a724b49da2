import { config } from '@/server/config';
import { badRequest } from '@/server/errors';
import { acceptInvitation } from '@/server/services/invitations/accept-invitation';
import { invitationProcedure } from '@/server/trpc';
import { presentApiKey } from '@/server/routers/keys/api-key.types';
import { presentMember } from '@/server/routers/members/member.types';
import { acceptedInvitationSchema, acceptInvitationInput } from './accept-invitation.types';

export const acceptInvitationRoute = invitationProcedure
  .meta({
    errors: {
      unauthorized: 'The invitation token is unknown or malformed.',
      forbidden: 'The email already has an account and no key of that person was sent, or the key sent is someone else’s or a service account’s.',
      conflict:
        'The invitation was accepted, revoked or expired, its sender no longer administers the network, or the person is already an active member.',
      'quota-exceeded':
        'The accepting person already has as many active API keys as one owner may (QUOTA_API_KEYS_PER_OWNER); acceptance makes one more.',
    },
    openapi: {
      method: 'POST',
      path: '/invitations/accept',
      tags: ['invitations'],
      summary: 'Accept an invitation',
      description:
        'Someone new accepts with the invitation token itself as the bearer: `Authorization: Bearer inv_…` (body optional). ' +
        'Someone who already has an account must prove it: `Authorization: Bearer sk_…` with one of their own API keys, and the token in ' +
        '`invitation_token` (the token alone answers 403 for an email that has an account). Creates the membership (and the person, when new) ' +
        'and answers 201 with `member` and a fresh first `api_key`, token included, once. Unknown or malformed token → 401 (counts against the ' +
        'failed-authentication limit); revoked, already accepted, expired, or sent by someone who no longer administers the network → 409.',
      protect: true,
      successDescription: 'Created',
    },
  })
  .input(acceptInvitationInput)
  .output(acceptedInvitationSchema)
  .mutation(async ({ ctx, input }) => {
    const token = ctx.invitation?.token ?? input.invitation_token;
    if (ctx.invitation && input.invitation_token) {
      throw badRequest('Send the invitation token once: as the bearer (someone new), or in invitation_token beside your own API key.', [
        { path: 'invitation_token', message: 'Not with an invitation token as the bearer.' },
      ]);
    }
    if (!token) {
      throw badRequest('With an API key as the bearer, send the invitation token in invitation_token.', [
        { path: 'invitation_token', message: 'Required when the bearer is an API key.' },
      ]);
    }
    const accepted = await ctx.db.transaction((tx) =>
      acceptInvitation({ tx, token, acceptor: ctx.principal, name: input.name, keyName: input.key_name, environment: config().APP_ENV }),
    );
    ctx.http.status = 201;
    return { member: presentMember(accepted.member), api_key: { ...presentApiKey(accepted.key, accepted.scopes), token: accepted.token } };
  });
