import { z } from 'zod';
import { requestCreativeChangesFields } from '@/server/routers/creatives/request-creative-changes.types';

export const approveCurrentCreativeInput = z.strictObject({});

/** What the host sends to ask for changes: the comment and, optionally, a new script. */
export const requestCurrentCreativeChangesInput = requestCreativeChangesFields;
