import type { IncomingMessage } from 'node:http';
import { AppError, badRequest } from '@/server/errors';

export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * After a 413 the server still reads (and discards) up to this much of what the client keeps
 * sending, so that the client gets to read the answer; beyond it the connection is cut.
 */
export const DISCARD_LIMIT_BYTES = 16 * 1024 * 1024;

/**
 * Read the whole body, refusing more than `limit` bytes with 413. A refused body
 * is drained, not left unread: closing a socket with unread data resets it, and a
 * client still writing its body then sees EPIPE/ECONNRESET instead of our 413.
 */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    discardRest(req, 0);
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      req.off('data', onData).off('end', onEnd);
      discardRest(req, size);
      reject(tooLarge());
    };
    const onEnd = () => resolve(Buffer.concat(chunks));
    req.on('data', onData).once('end', onEnd).once('error', reject);
  });
}

function discardRest(req: IncomingMessage, alreadyRead: number): void {
  let read = alreadyRead;
  req.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > DISCARD_LIMIT_BYTES) req.socket.destroy();
  });
  req.on('error', () => {}); // the client went away: nothing left to answer
  req.resume();
}

function tooLarge(): AppError {
  return new AppError('payload-too-large', `The request body is larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB.`);
}

/**
 * The body a mail client's one-click unsubscribe sends (RFC 8058): `List-Unsubscribe=One-Click` as
 * a URL-encoded or multipart form. Only an operation that takes it (the unsubscribe link's) reads
 * it so; to every other one it is a body that is not JSON (415).
 */
export function isOneClickUnsubscribe(raw: Buffer, contentType: string | undefined): boolean {
  const text = raw.toString('utf8');
  if (/^application\/x-www-form-urlencoded\b/i.test(contentType ?? '')) return new URLSearchParams(text).get('List-Unsubscribe') === 'One-Click';
  if (/^multipart\/form-data\b/i.test(contentType ?? '')) return /name="List-Unsubscribe"\r?\n\r?\nOne-Click\r?\n/.test(text);
  return false;
}

/**
 * The JSON body of a write. An empty body is `{}`, so `curl -X POST …/accept`
 * works; anything else must be a JSON object sent as application/json.
 */
export function parseJsonBody(raw: Buffer, contentType: string | undefined): unknown {
  const text = raw.toString('utf8');
  if (text.trim() === '') return {};
  if (contentType && !/^application\/(.+\+)?json\b/i.test(contentType)) {
    throw new AppError(
      'unsupported-media-type',
      'Send the request body as JSON with Content-Type: application/json (with curl: -H "Content-Type: application/json").',
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw badRequest('The request body is not valid JSON.');
  }
  // Every operation takes an object: `null`, `[]`, `0` or `"x"` would otherwise be spread into
  // the input as nothing (a no-op write answering 200) or as odd fields ("Unknown field(s): 0").
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest('The request body must be a JSON object.', [{ path: '(body)', message: 'Expected a JSON object.' }]);
  }
  refuseUnsafeInput(body);
  return body;
}

/**
 * How deeply an input may nest objects and arrays. The deepest any operation takes is a key's
 * scopes (an array of objects in the body); the rest is room, and keeps every check behind this
 * one (zod among them) far from the end of the stack.
 */
export const MAX_INPUT_DEPTH = 32;

/**
 * What every parsed input must pass before anything else reads it, on both transports; each a 400:
 *
 * - no NUL in any string or key: Postgres text cannot hold U+0000, so it would fail there as a 500;
 * - no lone UTF-16 surrogate (JSON's "\ud800" without its pair) in any string or key: it is not
 *   text; a text column would silently store U+FFFD and a jsonb one (the audit log) refuses it, a 500;
 * - no nesting deeper than MAX_INPUT_DEPTH.
 *
 * One walk without recursion: the recursive walk this replaces overflowed the stack on a 40 kB
 * body nested 20,000 deep, a 500 for anyone, with a key or without.
 */
export function refuseUnsafeInput(input: unknown): void {
  const pending: Array<{ value: unknown; depth: number }> = [{ value: input, depth: 0 }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value, depth } = next;
    if (typeof value === 'string') {
      refuseUnsafeText(value);
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= MAX_INPUT_DEPTH) throw nestedTooDeeply();
    for (const [key, inner] of Object.entries(value)) {
      refuseUnsafeText(key);
      if (typeof inner === 'string') refuseUnsafeText(inner);
      else if (typeof inner === 'object' && inner !== null) pending.push({ value: inner, depth: depth + 1 });
    }
  }
}

/**
 * One string of the input. Two native scans: `isWellFormed` (ES2024) is false exactly when a
 * surrogate is not half of a pair. Measured on Node 24 against one regular expression for both
 * (`/[\0\ud800-\udfff]/`): as fast on short strings, and 30× faster on a 2,000-character one.
 */
function refuseUnsafeText(text: string): void {
  if (text.includes('\0')) throw nulRefused();
  if (!text.isWellFormed()) throw loneSurrogateRefused();
}

/**
 * Postgres text cannot hold U+0000: a NUL in any string would reach the
 * database and fail there as a 500. Refused up front, in the body and the URL.
 */
export function nulRefused(): AppError {
  return badRequest('Text must not contain the NUL character (\\u0000 in JSON, %00 in a URL).');
}

function nestedTooDeeply(): AppError {
  return badRequest(`The request body nests objects and arrays more than ${MAX_INPUT_DEPTH} levels deep; no operation takes more than a few.`, [
    { path: '(body)', message: `Nested more than ${MAX_INPUT_DEPTH} levels deep.` },
  ]);
}

function loneSurrogateRefused(): AppError {
  return badRequest('Text must be valid Unicode: a lone UTF-16 surrogate (\\ud800 to \\udfff in JSON without its pair) is not a character.');
}

/** Bytes 0x80–0xFF percent-encoded: only then can the URL's encoding be anything but ASCII. */
const PERCENT_ENCODED_HIGH_BYTE = /%[89a-f]/i;
/** A `%` that starts no escape: kept as it is (URLSearchParams does too), so the check below judges only escapes. */
const BARE_PERCENT = /%(?![0-9a-f]{2})/gi;

/**
 * The request target (path and query), before routing, on both transports; each a 400:
 *
 * - an encoded NUL (%00);
 * - percent-encoded bytes that are not UTF-8, such as %ED%A0%80, a lone surrogate encoded as if it
 *   were a character (URLs encode text as UTF-8: anything else would be read as U+FFFD, silently).
 */
export function refuseUnsafeTarget(url: string): void {
  if (url.includes('%00')) throw nulRefused();
  if (!PERCENT_ENCODED_HIGH_BYTE.test(url)) return;
  try {
    decodeURIComponent(url.replace(BARE_PERCENT, '%25'));
  } catch {
    throw badRequest('The URL is not percent-encoded UTF-8 (%ED%A0%80 to %ED%BF%BF would be lone surrogates, which are not characters).');
  }
}

/** A UTF-16 surrogate encoded as UTF-8 would encode it (ED A0–BF xx); node reads header bytes as latin1. */
const SURROGATE_IN_HEADER = /\xed[\xa0-\xbf]/;

/** Header values, before routing, on both transports: one carrying a surrogate is a 400. */
export function refuseUnsafeHeaders(rawHeaders: readonly string[]): void {
  for (let i = 1; i < rawHeaders.length; i += 2) {
    if (SURROGATE_IN_HEADER.test(rawHeaders[i]!)) {
      throw badRequest(`The ${rawHeaders[i - 1]} header carries a UTF-16 surrogate (bytes ED A0 to ED BF), which is not a character.`);
    }
  }
}
