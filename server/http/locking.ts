import type { HttpOut } from './answer';
import { badRequest } from '@/server/errors';

/**
 * The version a write expects, from `If-Match: "3"` (or `W/"3"`) or a body
 * `version`. Undefined when the client sent neither: the service then locks on
 * the version it read itself.
 */
export function expectedVersion(ifMatch: string | undefined, bodyVersion: number | undefined): number | undefined {
  let fromHeader: number | undefined;
  if (ifMatch !== undefined && ifMatch.trim() !== '*') {
    const match = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(ifMatch);
    if (!match) throw badRequest('If-Match must be the ETag of the resource, e.g. "3".');
    fromHeader = Number(match[1]);
  }
  if (fromHeader !== undefined && bodyVersion !== undefined && fromHeader !== bodyVersion) {
    throw badRequest('If-Match and the body version disagree; send one of them.');
  }
  return fromHeader ?? bodyVersion;
}

export function etag(version: number): string {
  return `"${version}"`;
}

/** Mark a response with the resource's version so the next write can send it back. */
export function setEtag(http: HttpOut, version: number): void {
  http.headers.ETag = etag(version);
}
