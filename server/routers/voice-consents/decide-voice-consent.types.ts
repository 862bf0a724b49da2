import { z } from 'zod';

/** What the host sends to grant or refuse: the version of the statement the page showed them. */
export const decideVoiceConsentInput = z.strictObject({
  statement_version: z
    .number({ error: 'statement_version must be the version of the statement you read (a whole number).' })
    .int('statement_version must be a whole number.')
    .min(1, 'statement_version must be 1 or more.')
    .meta({ description: 'The `statement.version` that `GET /voice-consents/current` showed: recorded with the decision, with its SHA-256.' }),
});

export const revokeCurrentVoiceConsentInput = z.strictObject({});
