import { z } from 'zod';
import type { passkeys } from '@/db/schema';
import { pageOf } from '@/server/http/page';
import { idField, timestamp } from '@/server/routers/shared.types';
import { CHALLENGE_MINUTES } from '@/server/services/passkeys/challenge-lifetime';

export const passkeySchema = z
  .object({
    id: idField('pky'),
    name: z.string(),
    created_at: timestamp,
    last_used_at: timestamp.nullable().meta({ description: 'When it last signed you in; null if never.' }),
  })
  .meta({ id: 'Passkey', description: 'A passkey of yours: it signs you in (`POST /sign-in/passkey`) as an emailed link does.' });

export const passkeyListSchema = pageOf(passkeySchema).meta({
  id: 'PasskeyList',
  description: 'All of them (a person has at most 20): `next_cursor` is always null.',
});

export const presentPasskey = (row: typeof passkeys.$inferSelect): z.infer<typeof passkeySchema> => ({
  id: row.id,
  name: row.name,
  created_at: row.createdAt.toISOString(),
  last_used_at: row.lastUsedAt?.toISOString() ?? null,
});

const challengeId = idField('pkc').meta({
  description: `The challenge's id, from the options' answer; it works once, for ${CHALLENGE_MINUTES} minutes.`,
});

/** A WebAuthn answer as the browser library (@simplewebauthn/browser) gives it: passed to the verifier as is. */
const authenticatorAnswer = (what: string) =>
  z
    .looseObject({
      id: z.string().min(1).max(1_024),
      rawId: z.string().min(1).max(1_024),
      type: z.literal('public-key'),
      response: z.looseObject({ clientDataJSON: z.string().max(16_384) }),
      clientExtensionResults: z.looseObject({}),
    })
    .meta({ description: `${what}, as \`@simplewebauthn/browser\` returns it (WebAuthn's JSON encoding).` });

export const challengeOptionsSchema = (kind: 'creation' | 'request') =>
  z
    .object({
      challenge_id: challengeId,
      options: z.looseObject({ challenge: z.string() }).meta({
        description:
          kind === 'creation'
            ? 'PublicKeyCredentialCreationOptionsJSON: give it to `startRegistration({ optionsJSON })` (or `navigator.credentials.create`).'
            : 'PublicKeyCredentialRequestOptionsJSON: give it to `startAuthentication({ optionsJSON })` (or `navigator.credentials.get`).',
      }),
    })
    .meta({ id: kind === 'creation' ? 'PasskeyRegistrationOptions' : 'PasskeySignInOptions' });

export const noInput = z.strictObject({}).optional();

export const registerPasskeyInput = z.strictObject({
  challenge_id: challengeId,
  name: z
    .string({ error: 'name is required.' })
    .trim()
    .min(1, 'name must not be blank.')
    .max(100, 'name must be at most 100 characters.')
    .meta({ description: 'How you will recognise it ("Work laptop").' }),
  response: authenticatorAnswer('The new passkey'),
});

export const passkeySignInInput = z.strictObject({
  challenge_id: challengeId,
  response: authenticatorAnswer('The passkey’s signature over the challenge'),
});

export const passkeyIdParam = { passkeyId: z.string().min(1).meta({ description: 'Passkey id (pky_…).' }) };
export const removePasskeyInput = z.strictObject({ ...passkeyIdParam });
export const removedPasskeySchema = z.object({ id: idField('pky'), deleted: z.literal(true) }).meta({ id: 'PasskeyRemoved' });
