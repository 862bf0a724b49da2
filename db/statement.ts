import { fillPlaceholders, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type postgres from 'postgres';
import { preparesStatements } from './client';

const dialect = new PgDialect();

/**
 * A raw statement for a hot path (authentication, idempotency, the rate limiter, webhook
 * fan-out and delivery), written with Drizzle's `sql` and the schema objects — `${apiKeys.tokenHash}`,
 * `from ${apiKeys}` — so that renaming a table or column in db/schema breaks the type check, and
 * its values as `sql.placeholder('name')`. It is rendered to text once, here, and each call runs
 * that text as a postgres.js prepared statement (unless the pool has them off, `connect()`): none of Drizzle's per-call rendering, which made
 * the key lookup about three times slower (docs/PERFORMANCE.md, "Raw SQL on the hot paths").
 */
export function statement<Row extends object, Values extends Record<string, unknown> = Record<string, never>>(query: SQL) {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return (client: postgres.Sql | postgres.TransactionSql, values: Values = {} as Values) =>
    client.unsafe<Row[]>(text, fillPlaceholders(params, values) as postgres.ParameterOrJSON<never>[], { prepare: preparesStatements() });
}

/** A column's bare name, where SQL allows no table before it (insert columns, update targets). */
export const column = (c: { name: string }) => sql.identifier(c.name);
