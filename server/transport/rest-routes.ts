import type { AnyProcedure, AnyRouter } from '@trpc/server';
import { getTRPCErrorFromUnknown, type TRPCError } from '@trpc/server';
import type { ZodType } from 'zod';
import {
  forEachOpenApiProcedure,
  getInputOutputParsers,
  getPathRegExp,
  instanceofZodTypeLikeVoid,
  instanceofZodTypeObject,
  instanceofZodTypeOptional,
  normalizePath,
  unwrapZodType,
} from 'trpc-to-openapi';
import { ZodArray, ZodNumber } from 'zod/v4';
import { csvColumnsOf } from './csv';
import type { RouteMeta } from '@/server/trpc';

/**
 * The /v1 route table, compiled once at start from the router's own `openapi` meta — the same
 * meta trpc-to-openapi reads to generate the document, with its own path patterns and input
 * rules — so that a request costs a regular-expression match and a procedure call: no Fetch
 * `Request`, `AbortController` or caller proxy per request (trpc-to-openapi's node adapter
 * builds all three; profiled in docs/PERFORMANCE.md, "/v1 at the speed of a bare server").
 *
 * What it keeps of the adapter, on purpose: routes are tried in the router's order (the first
 * match wins, as there); path parameters are decoded by the same pattern; the input is the body
 * (or the query string, each parameter's only value unless repeated, and always a list for an
 * array field) with the path parameters over it, and nothing for a procedure without input.
 */
export interface RestRoute {
  /** The procedure's path in the router (`networks.list`). */
  path: string;
  type: 'query' | 'mutation';
  procedure: AnyProcedure;
  pattern: RegExp;
  /** The procedure takes no input (`z.void()` or none): the request's is not passed. */
  takesNoInput: boolean;
  /** Top-level array fields of the input: a single query parameter becomes a one-item list. */
  arrayFields: string[];
  /** A list (its output a page of items): the columns it answers `Accept: text/csv` with (server/transport/csv.ts). */
  csvColumns: string[] | undefined;
  /** The OpenAPI path (`/networks/{networkId}/offers`). */
  openapiPath: string;
  /** The unsubscribe link's operation: a one-click form POST (RFC 8058) gives its input in the query. */
  takesOneClickForm: boolean;
  /** Takes a `text/csv` body (its meta's `contentTypes`): the rows of its one list field (server/transport/csv.ts). */
  csvBody: { field: string; columns: string[]; numeric: Set<string> } | undefined;
}

export interface RestMatch {
  route: RestRoute;
  pathInput: Record<string, string>;
}

function arrayFieldsOf(schema: ZodType): string[] {
  if (!instanceofZodTypeObject(schema)) return [];
  return Object.entries((schema as { shape: Record<string, unknown> }).shape)
    .filter(
      ([, field]) =>
        field instanceof ZodArray || (instanceofZodTypeOptional(field as ZodType) && (field as { unwrap(): unknown }).unwrap() instanceof ZodArray),
    )
    .map(([name]) => name);
}

/** A `text/csv` body's shape: the input's one list field, and the fields of its rows (those that are numbers too). */
function csvBodyOf(schema: ZodType): RestRoute['csvBody'] {
  const [field] = arrayFieldsOf(schema);
  if (!field) return undefined;
  let list = (schema as unknown as { shape: Record<string, unknown> }).shape[field] as { unwrap?: () => unknown };
  while (!(list instanceof ZodArray) && typeof list.unwrap === 'function') list = list.unwrap() as typeof list;
  const row = unwrapZodType((list as unknown as ZodArray).element as ZodType, true);
  if (!instanceofZodTypeObject(row)) return undefined;
  const shape = (row as unknown as { shape: Record<string, ZodType> }).shape;
  const numeric = Object.keys(shape).filter((name) => unwrapZodType(shape[name]!, true) instanceof ZodNumber);
  return { field, columns: Object.keys(shape), numeric: new Set(numeric) };
}

function pagesByCursor(schema: ZodType): boolean {
  if (!instanceofZodTypeObject(schema)) return false;
  const shape = (schema as { shape: Record<string, unknown> }).shape;
  return 'limit' in shape && 'cursor' in shape;
}

export function compileRestRoutes(router: AnyRouter): (method: string, path: string) => RestMatch | undefined {
  const byMethod = new Map<string, RestRoute[]>();
  forEachOpenApiProcedure(router._def.procedures as Parameters<typeof forEachOpenApiProcedure>[0], ({ path, procedure, meta }) => {
    const { openapi } = meta;
    const type = procedure._def.type;
    if (type === 'subscription') return;
    const schema = unwrapZodType(getInputOutputParsers(procedure).inputParser as ZodType, true);
    const routes = byMethod.get(openapi.method) ?? [];
    routes.push({
      path,
      type,
      procedure: procedure as AnyProcedure,
      pattern: getPathRegExp(normalizePath(openapi.path)),
      takesNoInput: instanceofZodTypeLikeVoid(schema),
      arrayFields: arrayFieldsOf(schema),
      openapiPath: openapi.path,
      takesOneClickForm: (meta as RouteMeta).gate === 'unsubscribe',
      csvBody: openapi.contentTypes?.includes('text/csv') ? csvBodyOf(schema) : undefined,
      // A list that pages (takes limit and cursor): CSV is every page of it.
      csvColumns: openapi.method === 'GET' && pagesByCursor(schema) ? csvColumnsOf(getInputOutputParsers(procedure).outputParser) : undefined,
    });
    byMethod.set(openapi.method, routes);
  });
  return (method, path) => {
    const routes = byMethod.get(method);
    if (!routes) return undefined;
    for (const route of routes) {
      const match = route.pattern.exec(path);
      if (match) return { route, pathInput: match.groups ?? {} };
    }
    return undefined;
  };
}

/** A GET or DELETE's input from its query string, as trpc-to-openapi reads it. */
export function queryInput(params: URLSearchParams, arrayFields: string[]): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    input[key] = values.length === 1 && !arrayFields.includes(key) ? values[0] : values;
  }
  return input;
}

/** The input as tRPC asks for it (an anonymous closure: see `headerReader` in server/trpc.ts). */
function rawInput(input: unknown): () => Promise<unknown> {
  return () => Promise.resolve(input);
}

/** Calls the procedure as tRPC's caller does, without the caller: errors come back as a TRPCError. */
export async function callRoute(
  route: RestRoute,
  ctx: unknown,
  input: unknown,
): Promise<{ ok: true; data: unknown } | { ok: false; error: TRPCError }> {
  try {
    const data: unknown = await route.procedure({
      path: route.path,
      type: route.type,
      ctx,
      getRawInput: rawInput(input),
      signal: undefined,
      batchIndex: 0,
    });
    return { ok: true, data };
  } catch (cause) {
    return { ok: false, error: getTRPCErrorFromUnknown(cause) };
  }
}
