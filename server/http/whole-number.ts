import { z } from 'zod';

/**
 * A whole number from `min` to `max`, `fallback` when absent, whose every refusal names the field
 * and its range. `coerce` for a query parameter, whose value arrives as text.
 */
export function wholeNumberField(
  name: string,
  { min, max, fallback, coerce = false }: { min: number; max: number; fallback: number; coerce?: boolean },
) {
  const error = `${name} must be a whole number from ${min} to ${max}.`;
  return (coerce ? z.coerce.number({ error }) : z.number({ error }))
    .int(error)
    .min(min, `${name} must be at least ${min}.`)
    .max(max, `${name} must be at most ${max}.`)
    .default(fallback);
}
