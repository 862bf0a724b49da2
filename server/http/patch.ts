/**
 * A PATCH's changes: only the fields the client sent. A field it left out (undefined once parsed)
 * stays as it is; one it sent as null is cleared.
 */
export function sentFields<T extends object>(candidate: { [K in keyof T]: T[K] | undefined }): Partial<T> {
  return Object.fromEntries(Object.entries(candidate).filter(([, value]) => value !== undefined)) as Partial<T>;
}
