import { z } from 'zod';
import { wholeNumberField } from './whole-number';

/*
 * The list contract (query parameters and envelope), free of server-only code
 * so that the console can import the procedures' schemas.
 */

/** Query parameters every list endpoint takes. Query strings are coerced explicitly. */
export const listParams = {
  limit: wholeNumberField('limit', { min: 1, max: 200, fallback: 50, coerce: true }).meta({ description: 'Page size, 1–200.' }),
  cursor: z.string().min(1).optional().meta({ description: 'Opaque cursor from the previous page’s next_cursor. Omit for the first page.' }),
};

/** The query parameter of a list that can also run newest first. */
export const orderParam = {
  order: z
    .enum(['asc', 'desc'], { error: 'order must be asc or desc.' })
    .default('asc')
    .meta({ description: 'asc: oldest first (default); desc: newest first.' }),
};

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

/** The list envelope schema for an item schema. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), next_cursor: z.string().nullable() });
}
