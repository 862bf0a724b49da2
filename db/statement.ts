import { fillPlaceholders, getTableColumns, is, Placeholder, sql, type Column, type SQL } from 'drizzle-orm';
import { PgDialect, type PgTable } from 'drizzle-orm/pg-core';
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
  const parameters = params.map((param, i) => {
    if (!is(param, Placeholder))
      throw new Error(`statement(): $${i + 1} is a value; a hot-path statement takes its values as sql.placeholder('name')`);
    return param.name;
  });
  const run = (client: postgres.Sql | postgres.TransactionSql, values: Values = {} as Values) =>
    client.unsafe<Row[]>(text, fillPlaceholders(params, values) as postgres.ParameterOrJSON<never>[], { prepare: preparesStatements() });
  const rendered: RenderedStatement = { text, parameters };
  return Object.assign(run, { rendered });
}

/**
 * A statement as Postgres receives it: its text, and the placeholder each `$n` takes (`parameters[n - 1]`;
 * a name can come more than once). For the benchmark's bare server (scripts/bench/baseline.ts), which
 * must run the very SQL the service runs without loading the service's modules.
 */
export interface RenderedStatement {
  text: string;
  parameters: string[];
}

/** A column's bare name, where SQL allows no table before it (insert columns, update targets). */
export const column = (c: { name: string }) => sql.identifier(c.name);

/**
 * A hot-path statement whose rows are rows of `table`, shaped as Drizzle's `select()` shapes them
 * (`$inferSelect`: property names, each value decoded by its column, so timestamps are Dates).
 * `query` gets the table's column list, each named by its property, for a `select` or a
 * `returning`. Rendered once, like `statement()`; per row only the columns' own decoders run —
 * none of Drizzle's per-call building and mapping, which was 15 % of a keyed POST's CPU
 * (docs/PERFORMANCE.md, "/v1 at the speed of a bare server").
 */
export function tableStatement<TTable extends PgTable, Values extends Record<string, unknown> = Record<string, never>>(
  table: TTable,
  query: (columns: SQL) => SQL,
) {
  const columns = Object.entries(getTableColumns(table)) as Array<[string, Column]>;
  const run = statement<Record<string, unknown>, Values>(
    query(
      sql.join(
        columns.map(([key, c]) => sql`${c} as ${sql.identifier(key)}`),
        sql`, `,
      ),
    ),
  );
  const decoded = async (client: postgres.Sql | postgres.TransactionSql, values: Values = {} as Values): Promise<Array<TTable['$inferSelect']>> => {
    const rows = await run(client, values);
    for (const row of rows) {
      for (const [key, c] of columns) {
        const value = row[key];
        if (value !== null && value !== undefined) row[key] = c.mapFromDriverValue(value);
      }
    }
    return rows as Array<TTable['$inferSelect']>;
  };
  return Object.assign(decoded, { rendered: run.rendered });
}
