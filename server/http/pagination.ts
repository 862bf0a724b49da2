import { createHmac, timingSafeEqual } from 'node:crypto';
import { badRequest } from '@/server/errors';
import { derivedKey } from '@/server/secrets';
import type { Page } from './page';

export { listParams, pageOf, type Page } from './page';

function mac(scope: string, body: string): Buffer {
  return createHmac('sha256', derivedKey('cursor')).update(scope).update('\0').update(body).digest().subarray(0, 16);
}

/**
 * Cursors are `base64url(last id) . base64url(mac)`. The MAC covers the list
 * they belong to (`scope`: route, network and filters), so a tampered cursor or
 * one copied from another list is a 400, never a silent wrong page.
 */
export function encodeCursor(scope: string, lastId: string): string {
  const body = Buffer.from(lastId).toString('base64url');
  return `${body}.${mac(scope, body).toString('base64url')}`;
}

export function decodeCursor(scope: string, cursor: string): string {
  const [body, tag, extra] = cursor.split('.');
  if (body && tag && extra === undefined) {
    const expected = mac(scope, body);
    const given = Buffer.from(tag, 'base64url');
    if (given.length === expected.length && timingSafeEqual(given, expected)) {
      return Buffer.from(body, 'base64url').toString();
    }
  }
  throw badRequest('Invalid cursor: pass next_cursor from the previous page of the same list, unchanged.', [
    { path: 'cursor', message: 'Invalid cursor.' },
  ]);
}

/**
 * Keyset pagination by id. `fetch(afterId, n)` returns up to n rows with
 * id > afterId in id order; we ask for one more than the limit to know
 * whether a next page exists.
 */
export async function paginate<Row extends { id: string }, Item>(
  params: { limit: number; cursor?: string | undefined },
  scope: string,
  fetch: (afterId: string | undefined, take: number) => Promise<Row[]>,
  present: (row: Row) => Item,
): Promise<Page<Item>> {
  const afterId = params.cursor ? decodeCursor(scope, params.cursor) : undefined;
  const rows = await fetch(afterId, params.limit + 1);
  const more = rows.length > params.limit;
  const page = more ? rows.slice(0, params.limit) : rows;
  const last = page[page.length - 1];
  return { items: page.map(present), next_cursor: more && last ? encodeCursor(scope, last.id) : null };
}
