import { AppError } from '@/server/errors';

export interface ByteRange {
  start: number;
  end: number; // inclusive
}

/**
 * Parse a single-range `Range: bytes=…` header against a body of `size` bytes.
 * Undefined when there is no usable Range (serve the whole body); 416 when it
 * cannot be satisfied. Multi-range requests are served whole (allowed by RFC 9110).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return undefined;
  const [, from, to] = match;
  let start: number;
  let end: number;
  if (from === '' && to === '') return undefined;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0) throw unsatisfiable(size);
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(from);
    end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
    if (start >= size || end < start) throw unsatisfiable(size);
  }
  return { start, end };
}

function unsatisfiable(size: number): AppError {
  return new AppError('range-not-satisfiable', `The requested range is outside the ${size} bytes of audio.`, {
    headers: { 'Content-Range': `bytes */${size}` },
  });
}
