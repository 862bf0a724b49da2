import { z } from 'zod';
import { REVIEW_COMMENT_MAX_LENGTH, REVISION_SCRIPT_MAX_LENGTH } from '@/domain/creative-review';
import { maxCharacters, networkParam } from '@/server/routers/shared.types';
import { creativeIdParam } from './creative.types';

/** What a request for changes says, from the host's page or an administrator: also the console's form. */
export const requestCreativeChangesFields = z.strictObject({
  comment: z
    .string({ error: 'comment is required: say what should change.' })
    .trim()
    .min(1, 'comment must not be blank: say what should change.')
    .check(maxCharacters(REVIEW_COMMENT_MAX_LENGTH, `comment must be at most ${REVIEW_COMMENT_MAX_LENGTH} characters.`))
    .meta({ description: `What should change (1–${REVIEW_COMMENT_MAX_LENGTH} characters); kept with the review.` }),
  script: z
    .string({ error: 'script must be a string.' })
    .trim()
    .min(1, 'script must not be blank (leave it out to keep the script).')
    .check(maxCharacters(REVISION_SCRIPT_MAX_LENGTH, `script must be at most ${REVISION_SCRIPT_MAX_LENGTH} characters.`))
    .optional()
    .meta({
      description:
        `The next revision’s script (1–${REVISION_SCRIPT_MAX_LENGTH} characters); left out, the script is kept. It must contain each of the ` +
        'campaign’s `required_lines` word for word (whitespace runs count as one space; case kept), else 400 naming the line.',
    }),
});

export const requestCreativeChangesInput = z.strictObject({ ...networkParam, ...creativeIdParam, ...requestCreativeChangesFields.shape });
