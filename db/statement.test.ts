import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { describe, expect, inject, it } from 'vitest';
import { SERVICE_STATEMENTS } from '@/scripts/bench/service-statements';
import { networks } from './schema';
import { statement, tableStatement } from './statement';

describe('statement(): what Postgres receives', () => {
  it('names the placeholder each $n takes, in order, a repeated one each time', () => {
    const s = statement(sql`select ${sql.placeholder('a')}::text || ${sql.placeholder('b')}::text || ${sql.placeholder('a')}::text`);
    expect(s.rendered.text).toBe('select $1::text || $2::text || $3::text');
    expect(s.rendered.parameters).toEqual(['a', 'b', 'a']);
  });

  it('refuses a value where a placeholder belongs (the rendered text could not be run without it)', () => {
    expect(() => statement(sql`select * from ${networks} where ${networks.id} = ${'net_1'}`)).toThrow(/\$1 is a value/);
  });

  it('keeps it for a table statement too', () => {
    const s = tableStatement(networks, (columns) => sql`select ${columns} from ${networks} where ${networks.id} = ${sql.placeholder('id')}`);
    expect(s.rendered.text).toMatch(/^select "networks"\."id" as "id", .* where "networks"\."id" = \$1$/);
    expect(s.rendered.parameters).toEqual(['id']);
  });

  it("hands the benchmark's bare server every statement it runs, each with a name for every $n Postgres asks for", async () => {
    // As the bare server gets them (JSON in BENCH_STATEMENTS) and runs them (a plain postgres.js client).
    const handedOver = JSON.parse(JSON.stringify(SERVICE_STATEMENTS)) as typeof SERVICE_STATEMENTS;
    const client = postgres(inject('databaseUrl'), { max: 1, onnotice: () => {} });
    try {
      for (const [name, { text, parameters }] of Object.entries(handedOver)) {
        const highest = Math.max(0, ...[...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
        expect(parameters, name).toHaveLength(highest);
        // Parsed and planned against the migrated schema, without running: the parameters Postgres counts.
        const described = await client.unsafe(text).describe();
        expect(described.types, name).toHaveLength(parameters.length);
      }
    } finally {
      await client.end();
    }
  });
});
