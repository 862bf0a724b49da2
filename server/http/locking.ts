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

/**
 * Every answer that is one versioned resource (a top-level `version`, as the OpenAPI document
 * tells them apart) carries that version as its ETag, so the next write can send it back in
 * If-Match. Set here, for every procedure (server/trpc.ts `base`), never route by route.
 */
export function setEtagOf(http: HttpOut, answer: unknown): void {
  const version = (answer as { version?: unknown } | null | undefined)?.version;
  if (typeof version === 'number') http.headers.ETag = etag(version);
}
