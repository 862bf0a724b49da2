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
 * The JSON body of a write. An empty body is `{}`, so `curl -X POST …/accept`
 * works; anything else must be a JSON object sent as application/json.
 */
export function parseJsonBody(raw: Buffer, contentType: string | undefined): unknown {
  const text = raw.toString('utf8');
  if (text.trim() === '') return {};
  if (contentType && !/^application\/(.+\+)?json\b/i.test(contentType)) {
    throw new AppError('unsupported-media-type', 'Send the request body as JSON with Content-Type: application/json (with curl: -H "Content-Type: application/json").');
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
      if (value.includes('\0')) throw nulRefused();
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= MAX_INPUT_DEPTH) throw nestedTooDeeply();
    for (const [key, inner] of Object.entries(value)) {
      if (key.includes('\0') || (typeof inner === 'string' && inner.includes('\0'))) throw nulRefused();
      if (typeof inner === 'object' && inner !== null) pending.push({ value: inner, depth: depth + 1 });
    }
  }
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

/** Whether a request target carries an encoded NUL (%00) in its path or query. */
export function urlContainsNul(url: string): boolean {
  return /%00/.test(url);
}
