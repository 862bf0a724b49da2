import { conflict, type AppError } from '../errors';

/**
 * Optimistic locking, the service side: the version a write is conditional on —
 * the one the client expects (If-Match or body `version`), else the one just
 * read. A client version that is already stale is a 409 before any write.
 */
export function versionToWrite(what: string, current: number, expected: number | undefined): number {
  const version = expected ?? current;
  if (version !== current) throw conflict(`${what} was modified (version ${current}, you sent ${version}). Re-fetch and retry.`);
  return version;
}

/** The 409 when the conditional update (`… where version = $v`) matched no row. */
export function modifiedConcurrently(what: string): AppError {
  return conflict(`${what} was modified concurrently. Re-fetch and retry.`);
}
