import type { IncomingMessage } from 'node:http';
import { AppError, badRequest } from '../errors';

export const MAX_BODY_BYTES = 1024 * 1024;

/** Read the whole body, refusing more than `limit` bytes with 413. */
export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function tooLarge(): AppError {
  return new AppError('payload-too-large', `The request body is larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB.`);
}

/**
 * The JSON body of a write. An empty body is `{}`, so `curl -X POST …/accept`
 * works; anything else must be JSON sent as application/json.
 */
export function parseJsonBody(raw: Buffer, contentType: string | undefined): unknown {
  const text = raw.toString('utf8');
  if (text.trim() === '') return {};
  if (contentType && !/^application\/(.+\+)?json\b/i.test(contentType)) {
    throw new AppError('unsupported-media-type', 'Send the request body as JSON with Content-Type: application/json (with curl: -H "Content-Type: application/json").');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest('The request body is not valid JSON.');
  }
}
