import { z } from 'zod';
import { localToIso } from './ads';

/*
 * zod helpers for the console's forms. Apart from ads.ts because zod is large (~240 KB of
 * script) and ads.ts is loaded by pages without forms (the overview): only modules with a form
 * import this one (docs/PERFORMANCE.md, "Console (Lighthouse)").
 */

/** An API schema for a datetime-local input: local time in, ISO 8601 out. */
export const localDateTime = <T extends z.ZodType>(schema: T) => z.preprocess(localToIso, schema);

/**
 * An empty number box: NaN once typed in and cleared (react-hook-form `valueAsNumber`), '' while it
 * still holds its default. Give number boxes '' as their default, not undefined: a form reset to
 * undefined keeps what its inputs showed (react-hook-form reads the value back from the input).
 */
const emptyNumber = (value: unknown) => value === '' || (typeof value === 'number' && Number.isNaN(value));

/** A number input (react-hook-form `valueAsNumber`): an empty box means "not given". */
export const optionalNumber = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (emptyNumber(value) ? undefined : value), schema);

/**
 * An optional field of an edit form, for an update: what was typed; `null` when the box of a value
 * that is set was emptied (that clears it); `undefined` (unchanged) when it was and stays empty.
 * `value` is the parsed value (empty boxes parse to undefined), `typed` the box's raw text.
 */
export const editedOptional = <T>(value: T | null | undefined, typed: string | null | undefined, current: unknown): T | null | undefined =>
  value ?? (typed?.trim() === '' && current ? null : undefined);

/**
 * An amount typed in whole units of its currency (a number input: 5000 = 5,000.00) for an API field
 * in minor units (cents): 5000 → 500000; an empty box (NaN) is "not given".
 */
export const centsFromUnits = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (emptyNumber(value) ? undefined : typeof value === 'number' ? Math.round(value * 100) : value), schema);

/**
 * A list of short texts typed in one text box, an item a line (a campaign's talking points and
 * required lines): lines trimmed, blank ones dropped. An empty box is an empty list.
 */
export const linesOf = <T extends z.ZodType>(schema: T) =>
  z.preprocess(
    (value) =>
      typeof value === 'string'
        ? value
            .split(/\r?\n/)
            .map((line) => line.trim())
            .filter((line) => line !== '')
        : value,
    schema,
  );
