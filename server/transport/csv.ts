import type { ServerResponse } from 'node:http';
import type { TRPCError } from '@trpc/server';
import { ZodArray, ZodObject } from 'zod/v4';
import { AppError, badRequest } from '@/server/errors';
import { logger } from '@/server/logger';

/*
 * Any list of /v1 as CSV: `GET` a list with `Accept: text/csv` and the answer is every row that
 * the same request pages through in JSON — same filters, same authorization, same budgets — as
 * one CSV file, streamed page by page (200 rows a page). Each page after the first is a call of
 * the procedure of its own: the key is looked up again and spends its budget, so a key revoked
 * during a long export stops it at the next page, and an export costs what paging by hand costs.
 * A failure after the first page cannot change the status any more: the stream is cut without
 * its final chunk, so the client sees an incomplete transfer, never a short file that looks whole.
 */

export const CSV_PAGE_SIZE = 200;

/** How the columns of a list are named: its items' fields, one level of nested objects flattened (`owner.type`). */
export function csvColumnsOf(output: unknown): string[] | undefined {
  const page = unwrap(output);
  if (!(page instanceof ZodObject)) return undefined;
  const shape = page.shape as Record<string, unknown>;
  if (!('items' in shape) || !('next_cursor' in shape)) return undefined;
  const items = unwrap(shape.items);
  const item = items instanceof ZodArray ? unwrap(items.element) : undefined;
  if (!(item instanceof ZodObject)) return undefined;
  return Object.entries(item.shape as Record<string, unknown>).flatMap(([name, field]) => {
    const inner = unwrap(field);
    return inner instanceof ZodObject ? Object.keys(inner.shape as object).map((sub) => `${name}.${sub}`) : [name];
  });
}

/** Optional, nullable, default: the schema inside. */
function unwrap(schema: unknown): unknown {
  let current = schema as { unwrap?: () => unknown } | undefined;
  while (current && typeof current.unwrap === 'function' && !(current instanceof ZodArray)) current = current.unwrap() as typeof current;
  return current;
}

/** Does the Accept header prefer CSV to JSON? (`text/csv`, or `text/csv` weighed above `application/json`.) */
export function acceptsCsv(accept: string | undefined): boolean {
  if (!accept?.includes('text/csv')) return false;
  let csv = 0;
  let json = 0;
  for (const [index, part] of accept.split(',').entries()) {
    const [type, ...params] = part.trim().toLowerCase().split(';');
    const q = Number(
      params
        .map((p) => p.trim())
        .find((p) => p.startsWith('q='))
        ?.slice(2) ?? 1,
    );
    const weight = Number.isFinite(q) ? q - index / 1000 : 0; // equal q: the first listed wins
    if (type === 'text/csv') csv = Math.max(csv, weight);
    else if (type === 'application/json' || type === '*/*' || type === 'application/*') json = Math.max(json, weight);
  }
  return csv > 0 && csv > json;
}

/**
 * One field as RFC 4180 writes it, and safe to open in a spreadsheet: a text starting with = + - @
 * tab or CR (a formula to Excel and Sheets; the rows hold what tenants typed) gets a leading '.
 */
function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function field(item: Record<string, unknown>, column: string): unknown {
  const dot = column.indexOf('.');
  if (dot === -1) return item[column];
  const parent = item[column.slice(0, dot)] as Record<string, unknown> | null | undefined;
  return parent?.[column.slice(dot + 1)];
}

export function csvLine(values: unknown[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

type Page = { items: Record<string, unknown>[]; next_cursor: string | null };
type PageResult = { ok: true; data: unknown } | { ok: false; error: TRPCError };

/** Retries of a page the key's budget refused (each waits its Retry-After, at most 10 s). */
const BUDGET_RETRIES = 5;

/**
 * Streams the list as CSV. `firstPage` was answered already (the caller sends an error instead);
 * `nextPage(cursor)` calls the procedure again, through every gate. Resolves when the file is
 * written or the stream was cut.
 */
export async function streamCsv({
  res,
  headers,
  filename,
  columns,
  firstPage,
  nextPage,
}: {
  res: ServerResponse;
  headers: Record<string, string | number>;
  filename: string;
  columns: string[];
  firstPage: Page;
  nextPage: (cursor: string) => Promise<PageResult>;
}): Promise<void> {
  res.writeHead(200, {
    ...headers,
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="${filename}"`,
  });
  const write = async (text: string) => {
    if (!res.write(text) && !res.destroyed) await drainedOrClosed(res);
  };
  await write(csvLine(columns));
  let page = firstPage;
  for (;;) {
    if (page.items.length) await write(page.items.map((item) => csvLine(columns.map((c) => field(item, c)))).join(''));
    if (!page.next_cursor || res.destroyed) break;
    const next = await pageWithRetries(() => nextPage(page.next_cursor!));
    if (!next.ok) {
      logger.warn({ err: next.error.cause ?? next.error, filename }, 'CSV export cut: a page failed');
      res.destroy();
      return;
    }
    page = next.data as Page;
  }
  res.end();
}

/** Resolves when the client has read what was written, or has gone (a client that leaves must not leave the export waiting). */
function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

async function pageWithRetries(call: () => Promise<PageResult>): Promise<PageResult> {
  for (let attempt = 0; ; attempt++) {
    const result = await call();
    const cause = result.ok ? undefined : result.error.cause;
    if (result.ok || attempt >= BUDGET_RETRIES || !(cause instanceof AppError) || cause.kind !== 'rate-limited') return result;
    const seconds = Number(cause.extra.headers?.['Retry-After'] ?? 1);
    await new Promise((resolve) => setTimeout(resolve, Math.min(10, Math.max(1, seconds)) * 1000));
  }
}

/** `offers-2026-11-28.csv`: the list's last fixed path segment and today's date (UTC). */
export function csvFilename(path: string): string {
  const name = path
    .split('/')
    .filter((segment) => segment && !segment.startsWith('{'))
    .at(-1);
  return `${name ?? 'export'}-${new Date().toISOString().slice(0, 10)}.csv`;
}

/**
 * A `text/csv` request body (RFC 4180: quoted fields, CRLF or LF), for an operation that takes one
 * (`contentTypes` with text/csv in its meta: its one list field is the rows). Each row becomes an
 * object of `columns`, in that order; a first line that names the columns (any case) is a header and
 * skipped; blank lines are skipped; a value of a number column that reads as a number becomes one
 * (anything else stays text, for the schema to refuse at its row and column).
 */
export function parseCsvBody(raw: Buffer, columns: string[], numeric: ReadonlySet<string>): Array<Record<string, unknown>> {
  const records = csvRecords(raw.toString('utf8').replace(/^\uFEFF/, ''));
  const nonBlank = records.filter((fields) => fields.some((f) => f.trim() !== ''));
  const header = nonBlank[0]?.map((f) => f.trim().toLowerCase());
  const rows = header && header.length === columns.length && header.every((f, i) => f === columns[i]) ? nonBlank.slice(1) : nonBlank;
  return rows.map((fields) => {
    if (fields.length !== columns.length) {
      throw badRequest(`Each CSV row has ${columns.length} fields (${columns.join(', ')}); one has ${fields.length}.`, [
        { path: '(body)', message: `Expected ${columns.join(',')} on every row.` },
      ]);
    }
    return Object.fromEntries(
      columns.map((column, i) => {
        const value = fields[i]!.trim();
        return [column, numeric.has(column) && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value];
      }),
    );
  });
}

function csvRecords(text: string): string[][] {
  const records: string[][] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      fields.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      fields.push(field);
      records.push(fields);
      fields = [];
      field = '';
    } else field += c;
  }
  if (quoted) throw badRequest('The CSV body ends inside a quoted field.', [{ path: '(body)', message: 'Unterminated quote.' }]);
  if (field !== '' || fields.length > 0) records.push([...fields, field]);
  return records;
}
