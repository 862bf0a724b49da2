import { z } from 'zod';
import type { ID_PREFIXES } from '@/db/ids';
import { ROLES } from '@/domain/roles';

/** ISO 8601 UTC timestamp, as every response shows time. */
export const timestamp = z.iso.datetime().meta({ example: '2026-11-21T10:00:00.000Z' });

/** An id of one kind, shown in the document by an example of its shape (`off_01jd…`). */
export const idField = (prefix: (typeof ID_PREFIXES)[keyof typeof ID_PREFIXES]) =>
  z.string().meta({ example: `${prefix}_01jd8x6v2c9q7r5t3w1y0zabcd` });

/** The optimistic-lock version of a mutable resource, also sent as its ETag. */
export const resourceVersion = z.number().int().meta({ example: 1 });

/** A mutable resource's version and times, in every schema in this order (`...versionedFields`). */
export const versionedFields = { version: resourceVersion, created_at: timestamp, updated_at: timestamp };

/** The answer's `version`, `created_at` and `updated_at` from a row (`...versionedOf(row)`). */
export const versionedOf = (row: { version: number; createdAt: Date; updatedAt: Date }) => ({
  version: row.version,
  created_at: iso(row.createdAt),
  updated_at: iso(row.updatedAt),
});

export const iso = (d: Date): string => d.toISOString();

/**
 * A list's inclusive time window, `since` and `until` as ISO 8601 date-times with an offset:
 * `z.strictObject({ ...timeRange('events that occurred'), … }).refine(...sinceNotAfterUntil)`.
 */
export const timeRange = (what: string) => {
  const bound = (name: 'since' | 'until') =>
    z.iso
      .datetime({ offset: true, error: `${name} must be an ISO 8601 date-time, e.g. 2026-11-21T10:00:00Z.` })
      .optional()
      .meta({ description: `Only ${what} ${name === 'since' ? 'at or after' : 'at or before'} this time.` });
  return { since: bound('since'), until: bound('until') };
};

/** The check that goes with `timeRange`: an empty window is a mistake, said as one. */
export const sinceNotAfterUntil: [
  (v: { since?: string | undefined; until?: string | undefined }) => boolean,
  { message: string; path: PropertyKey[] },
] = [(v) => !v.since || !v.until || Date.parse(v.since) <= Date.parse(v.until), { message: 'since must not be after until.', path: ['since'] }];

/** The window as dates, for a service, and as text, for a cursor's scope. */
export function timeWindow(input: { since?: string | undefined; until?: string | undefined }) {
  const since = input.since ? new Date(input.since) : undefined;
  const until = input.until ? new Date(input.until) : undefined;
  return { since, until, scope: `${since?.toISOString() ?? ''}..${until?.toISOString() ?? ''}` };
}
export const isoOrNull = (d: Date | null): string | null => (d ? d.toISOString() : null);

export const roleSchema = z.enum(ROLES).meta({ description: 'read_only < administrator' });

/** Path parameter naming the network; a procedure's input spreads it in. */
export const networkParam = {
  networkId: z.string().min(1).meta({ description: 'Network id (net_…).' }),
};

/** Characters as JSON Schema's maxLength and Postgres count them (code points): an emoji is one. */
export function characterCount(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/**
 * At most `max` characters, as the OpenAPI document's `maxLength` means it. zod's `.max()`
 * counts UTF-16 units, so a name of 150 emoji — valid by the document's 200 — was refused.
 * Use as `.check(maxCharacters(200, '… at most 200 characters.'))`; it documents `maxLength`.
 */
export function maxCharacters(max: number, message: string) {
  const check = z.refine<string>((text) => text.length <= max || characterCount(text) <= max, message);
  check._zod.onattach.push((schema) => {
    schema._zod.bag.maximum = max;
  });
  return check;
}

/** An optional text filter of a list (`action=…`): trimmed, not empty, at most 100 characters. */
export const textFilter = (name: string, description: string) =>
  z
    .string()
    .trim()
    .min(1, `${name} must not be empty.`)
    .check(maxCharacters(100, `${name} must be at most 100 characters.`))
    .optional()
    .meta({ description });

/** A required, non-blank display name. */
export const nameField = z
  .string({ error: 'name is required and must be a string.' })
  .trim()
  .min(1, 'name must not be blank.')
  .check(maxCharacters(200, 'name must be at most 200 characters.'));

/** Optimistic-lock version a write may send instead of If-Match. */
export const versionField = z.number().int().min(1).optional().meta({
  description: 'The version you read; the write fails with 409 if the resource has changed since. Same as If-Match.',
});

/** An email address as every input takes one: trimmed and lower-cased (how it is stored and compared). */
export const emailAddress = z
  .string({ error: 'email is required and must be a string.' })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: 'email must be a valid email address.' }).max(320));
