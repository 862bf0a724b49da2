import { TRPCError } from '@trpc/server';
import { DrizzleQueryError } from 'drizzle-orm';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { LOG_OPTIONS, messageWithoutQueryValues } from './logger';

const SECRET = 'whsec_c2VjcmV0LW5ldmVyLXRvLWJlLWxvZ2dlZA';

/** A failed insert of a secret, as Drizzle reports it, inside a TRPCError as a procedure throws it. */
function failedInsert() {
  const query = new DrizzleQueryError('insert into "app_secrets" ("value") values ($1)', [SECRET], new Error('connection terminated'));
  return new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: query });
}

describe('a failed query in a log line or on the terminal', () => {
  it('keeps the statement and the count of its values, never the values, anywhere in the cause chain', () => {
    const lines: string[] = [];
    const capture = pino(LOG_OPTIONS, { write: (line: string) => lines.push(line) });
    capture.error({ err: failedInsert() }, 'request failed');
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(SECRET);
    expect(lines[0]).toContain('insert into \\"app_secrets\\"');
    expect(lines[0]).toContain('params: 1 withheld');
  });

  it('strips the message that scripts/start.ts prints, and leaves the error as it was', () => {
    const error = new DrizzleQueryError('select $1', [SECRET]);
    expect(messageWithoutQueryValues(error)).toBe('Failed query: select $1\nparams: 1 withheld');
    expect(error.params).toEqual([SECRET]);
  });

  it('logs an error whose stack is read-only, as a refused connection’s is', () => {
    const refused = new Error('connect ECONNREFUSED 127.0.0.1:1');
    Object.defineProperty(refused, 'stack', { value: refused.stack, writable: false });
    const lines: string[] = [];
    pino(LOG_OPTIONS, { write: (line: string) => lines.push(line) }).warn(
      { err: new DrizzleQueryError('select 1', [], refused) },
      'health check: the database does not answer',
    );
    expect(lines[0]).toContain('ECONNREFUSED');
  });
});
