import { describe, expect, it } from 'vitest';
import { AppError, conflict, ERROR_KINDS, type ErrorKind } from './errors';

describe('AppError', () => {
  it('carries no stack trace for a refusal (4xx), and keeps one for a fault (5xx), leaving the limit as it was', () => {
    const before = Error.stackTraceLimit;
    for (const kind of Object.keys(ERROR_KINDS) as ErrorKind[]) {
      const frames = new AppError(kind, 'detail').stack!.split('\n').filter((line) => line.trimStart().startsWith('at '));
      if (ERROR_KINDS[kind].status < 500) expect(frames, kind).toEqual([]);
      else expect(frames.length, kind).toBeGreaterThan(0);
    }
    expect(conflict('taken').stack).toBe('AppError: taken');
    expect(Error.stackTraceLimit).toBe(before);
  });
});
