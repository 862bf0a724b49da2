/**
 * Reading the OpenAPI 3.1 document for the reference page: grouping
 * operations by tag, describing schemas in words, flattening fields into
 * table rows and building curl examples. Pure functions, no React.
 */

export interface Schema {
  $ref?: string;
  type?: string | string[];
  title?: string;
  description?: string;
  format?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  example?: unknown;
  examples?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  deprecated?: boolean;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: Schema;
  deprecated?: boolean;
}

export interface MediaType {
  schema?: Schema;
  example?: unknown;
}

export interface Response {
  description?: string;
  headers?: Record<string, { description?: string; schema?: Schema }>;
  content?: Record<string, MediaType>;
}

export interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  deprecated?: boolean;
  security?: Record<string, string[]>[];
  parameters?: (Parameter | { $ref: string })[];
  requestBody?: { required?: boolean; description?: string; content?: Record<string, MediaType> };
  responses?: Record<string, Response>;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: { url: string; description?: string }[];
  paths?: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, Schema>; parameters?: Record<string, Parameter> };
  tags?: { name: string; description?: string }[];
  security?: Record<string, string[]>[];
}

export const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface OperationEntry {
  /** Stable anchor: `op-<operationId>`, or built from method and path. */
  anchor: string;
  method: HttpMethod;
  path: string;
  operation: Operation;
  parameters: Parameter[];
  /** False when the operation declares `security: []`. */
  secured: boolean;
}

export interface TagGroup {
  tag: string;
  anchor: string;
  description?: string;
  operations: OperationEntry[];
}

/** Ids safe for use in URL fragments (letters, digits, `-`, `_`). */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[{}]/g, '')
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Follow a local `$ref` (`#/components/...`). Unknown refs resolve to an empty schema. */
export function deref<T = Schema>(doc: OpenApiDocument, value: T | { $ref: string }): T {
  let current: unknown = value;
  for (let hops = 0; hops < 20; hops++) {
    if (!current || typeof current !== 'object' || !('$ref' in current)) return current as T;
    const ref = (current as { $ref: string }).$ref;
    if (!ref.startsWith('#/')) return {} as T;
    let target: unknown = doc;
    for (const part of ref.slice(2).split('/')) {
      const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
      target = target && typeof target === 'object' ? (target as Record<string, unknown>)[key] : undefined;
    }
    current = target ?? {};
  }
  return {} as T;
}

/** The component name of a `$ref` schema (`#/components/schemas/Network` → `Network`). */
export function refName(schema: Schema | undefined): string | undefined {
  const ref = schema?.$ref;
  return ref?.startsWith('#/components/schemas/') ? ref.slice('#/components/schemas/'.length) : undefined;
}

function isNullSchema(s: Schema): boolean {
  return s.type === 'null' || (Array.isArray(s.type) && s.type.length === 1 && s.type[0] === 'null');
}

/** A short type in words: `string`, `integer`, `array of Network`, `string | null`, `"a" | "b"`. */
export function typeLabel(doc: OpenApiDocument, schema: Schema | undefined, depth = 0): string {
  if (!schema) return 'any';
  if (depth > 4) return '…';
  const name = refName(schema);
  const s = deref(doc, schema);
  if (name && (s.properties || s.type === 'object')) return name;
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return 'enum';
  const union = s.anyOf ?? s.oneOf;
  if (union) {
    const labels = union.map((u) => typeLabel(doc, u, depth + 1));
    return [...new Set(labels)].join(' | ');
  }
  if (s.allOf?.length === 1) return typeLabel(doc, s.allOf[0], depth + 1);
  if (s.allOf) return 'object';
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (types.length === 0) return s.properties ? 'object' : 'any';
  return types
    .map((t) => {
      if (t === 'array') return `array of ${typeLabel(doc, s.items, depth + 1)}`;
      if (t === 'string' && s.format) return `string (${s.format})`;
      return t;
    })
    .join(' | ');
}

/** Enum values of a schema, including `anyOf` members that are enums or consts. */
function enumValues(doc: OpenApiDocument, schema: Schema): unknown[] | undefined {
  const s = deref(doc, schema);
  if (s.enum) return s.enum;
  const union = s.anyOf ?? s.oneOf;
  if (!union) return undefined;
  const values = union.flatMap((u) => {
    const m = deref(doc, u);
    return m.enum ?? (m.const !== undefined ? [m.const] : []);
  });
  return values.length ? values : undefined;
}

// zod emits the safe-integer range for plain integers; it is noise to a reader.
const SAFE = 9007199254740991;

/** Constraints worth telling a reader: allowed values, ranges, lengths, default. */
export function constraintNotes(doc: OpenApiDocument, schema: Schema | undefined): string[] {
  if (!schema) return [];
  const s = deref(doc, schema);
  const notes: string[] = [];
  const values = enumValues(doc, s);
  if (values) notes.push(`One of: ${values.map((v) => `\`${String(v)}\``).join(', ')}.`);
  const min = s.minimum ?? s.exclusiveMinimum;
  const max = s.maximum ?? s.exclusiveMaximum;
  const hasMin = min !== undefined && Math.abs(min) !== SAFE;
  const hasMax = max !== undefined && Math.abs(max) !== SAFE;
  if (hasMin && hasMax) notes.push(`From ${min} to ${max}.`);
  else if (hasMin) notes.push(`At least ${min}.`);
  else if (hasMax) notes.push(`At most ${max}.`);
  if (s.minLength !== undefined && s.maxLength !== undefined) notes.push(`${s.minLength}–${s.maxLength} characters.`);
  else if (s.maxLength !== undefined) notes.push(`At most ${s.maxLength} characters.`);
  else if (s.minLength !== undefined && s.minLength > 1) notes.push(`At least ${s.minLength} characters.`);
  if (s.maxItems !== undefined) notes.push(`At most ${s.maxItems} items.`);
  if (s.default !== undefined) notes.push(`Default \`${JSON.stringify(s.default)}\`.`);
  return notes;
}

export interface FieldRow {
  name: string;
  type: string;
  required: boolean;
  description: string;
  notes: string[];
  depth: number;
}

/**
 * The fields of an object schema as table rows. Nested objects (and arrays of
 * objects) contribute their own fields as `parent.child` / `parent[].child`.
 */
export function fieldRows(doc: OpenApiDocument, schema: Schema | undefined, prefix = '', depth = 0, seen: string[] = []): FieldRow[] {
  if (!schema || depth > 3) return [];
  const name = refName(schema);
  if (name && seen.includes(name)) return [];
  const trail = name ? [...seen, name] : seen;
  const s = deref(doc, schema);
  if (s.allOf) return s.allOf.flatMap((part) => fieldRows(doc, part, prefix, depth, trail));
  const rows: FieldRow[] = [];
  for (const [field, raw] of Object.entries(s.properties ?? {})) {
    const prop = deref(doc, raw);
    const fullName = `${prefix}${field}`;
    rows.push({
      name: fullName,
      type: typeLabel(doc, raw),
      required: s.required?.includes(field) ?? false,
      description: prop.description ?? raw.description ?? '',
      notes: constraintNotes(doc, raw),
      depth,
    });
    const nested = objectTarget(doc, raw);
    if (nested) rows.push(...fieldRows(doc, nested.schema, `${fullName}${nested.suffix}.`, depth + 1, trail));
  }
  return rows;
}

/** The object schema inside a property, if any: itself, its array items, or the non-null branch. */
function objectTarget(doc: OpenApiDocument, schema: Schema): { schema: Schema; suffix: string } | undefined {
  const s = deref(doc, schema);
  if (s.properties) return { schema, suffix: '' };
  if (s.items && deref(doc, s.items).properties) return { schema: s.items, suffix: '[]' };
  const union = (s.anyOf ?? s.oneOf)?.filter((u) => !isNullSchema(deref(doc, u)));
  if (union?.length === 1 && union[0]) return objectTarget(doc, union[0]);
  return undefined;
}

/** All operations, grouped by their first tag, in the order of the document. */
export function groupOperations(doc: OpenApiDocument): TagGroup[] {
  const groups = new Map<string, TagGroup>();
  for (const t of doc.tags ?? []) {
    groups.set(t.name, { tag: t.name, anchor: `tag-${slugify(t.name)}`, description: t.description, operations: [] });
  }
  const usedAnchors = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    const shared = (item.parameters as Operation['parameters']) ?? [];
    for (const method of HTTP_METHODS) {
      const operation = item[method] as Operation | undefined;
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? 'other';
      let group = groups.get(tag);
      if (!group) {
        group = { tag, anchor: `tag-${slugify(tag)}`, operations: [] };
        groups.set(tag, group);
      }
      const own = (operation.parameters ?? []).map((p) => deref<Parameter>(doc, p));
      const inherited = shared.map((p) => deref<Parameter>(doc, p)).filter((p) => !own.some((o) => o.name === p.name && o.in === p.in));
      let anchor = `op-${slugify(operation.operationId ?? `${method}-${path}`)}`;
      while (usedAnchors.has(anchor)) anchor += '-';
      usedAnchors.add(anchor);
      const security = operation.security ?? doc.security ?? [];
      group.operations.push({
        anchor,
        method,
        path,
        operation,
        parameters: [...inherited, ...own],
        secured: security.length > 0,
      });
    }
  }
  return [...groups.values()].filter((g) => g.operations.length > 0);
}

const SAMPLE_STRINGS: [RegExp, string][] = [
  [/email/, 'ops@example.com'],
  [/url|website/, 'https://example.com/'],
  [/currency/, 'USD'],
  [/^key_name$/, 'ci-deploy'],
  [/name/, 'Example name'],
  [/script/, 'This episode is brought to you by Example.'],
];

/** A plausible value for a schema: its example, default or first enum value, else one made up from the type. */
export function sampleValue(doc: OpenApiDocument, schema: Schema | undefined, field = '', depth = 0): unknown {
  if (!schema || depth > 4) return null;
  const s = deref(doc, schema);
  if (s.example !== undefined) return s.example;
  if (s.examples?.length) return s.examples[0];
  if (s.default !== undefined) return s.default;
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  const union = (s.anyOf ?? s.oneOf)?.filter((u) => !isNullSchema(deref(doc, u)));
  if (union?.[0]) return sampleValue(doc, union[0], field, depth + 1);
  if (s.allOf?.[0]) return sampleValue(doc, s.allOf[0], field, depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'object':
    case undefined:
      return s.properties ? sampleObject(doc, s, false, depth + 1) : {};
    case 'array':
      return [sampleValue(doc, s.items, field, depth + 1)];
    case 'integer':
    case 'number':
      return s.minimum !== undefined && Math.abs(s.minimum) !== SAFE ? s.minimum : 1;
    case 'boolean':
      return false;
    case 'string': {
      if (s.format === 'date-time') return '2026-11-21T10:00:00.000Z';
      if (s.format === 'email') return 'ops@example.com';
      if (s.format === 'uri' || s.format === 'url') return 'https://example.com/';
      const hit = SAMPLE_STRINGS.find(([re]) => re.test(field));
      return hit ? hit[1] : 'string';
    }
    default:
      return null;
  }
}

/** An example object: its required fields, or every field when none is required. */
export function sampleObject(doc: OpenApiDocument, schema: Schema, everyField: boolean, depth = 0): Record<string, unknown> {
  const s = deref(doc, schema);
  const props = Object.entries(s.properties ?? {});
  const required = s.required ?? [];
  const chosen = everyField || required.length === 0 ? props : props.filter(([k]) => required.includes(k));
  return Object.fromEntries(chosen.map(([k, v]) => [k, sampleValue(doc, v, k, depth + 1)]));
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** `{networkId}` → `$NETWORK_ID`, so the example runs once those variables are set. */
export function pathVariable(name: string): string {
  return `$${name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/[^A-Za-z0-9]+/g, '_').toUpperCase()}`;
}

/** The JSON body schema of an operation, if it takes one. */
export function jsonBody(op: Operation): MediaType | undefined {
  const content = op.requestBody?.content;
  if (!content) return undefined;
  return content['application/json'] ?? Object.entries(content).find(([type]) => type.includes('json'))?.[1];
}

/** A copy-and-paste curl command for an operation (expects `$API_KEY` and path variables in the shell). */
export function curlExample(doc: OpenApiDocument, baseUrl: string, entry: OperationEntry): string {
  const path = entry.path.replace(/\{([^}]+)\}/g, (_, name: string) => pathVariable(name));
  const query = entry.parameters
    .filter((p) => p.in === 'query' && p.required)
    .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(String(sampleValue(doc, p.schema, p.name)))}`);
  const url = `${baseUrl}${path}${query.length ? `?${query.join('&')}` : ''}`;
  const lines = [entry.method === 'get' ? `curl "${url}"` : `curl -X ${entry.method.toUpperCase()} "${url}"`];
  if (entry.secured) lines.push(`-H "Authorization: Bearer $API_KEY"`);
  for (const p of entry.parameters) {
    if (p.in === 'header' && p.required) lines.push(`-H ${shellQuote(`${p.name}: ${String(sampleValue(doc, p.schema, p.name))}`)}`);
  }
  const body = jsonBody(entry.operation);
  if (body) {
    const example = body.example ?? (body.schema ? sampleObject(doc, body.schema, false) : {});
    lines.push(`-H "Content-Type: application/json"`);
    lines.push(`-d ${shellQuote(JSON.stringify(example))}`);
  }
  return lines.join(' \\\n  ');
}

/** Response status codes in numeric order, `default` last. */
export function sortedResponses(op: Operation): [string, Response][] {
  return Object.entries(op.responses ?? {}).sort(([a], [b]) => {
    const na = Number(a);
    const nb = Number(b);
    if (Number.isNaN(na)) return 1;
    if (Number.isNaN(nb)) return -1;
    return na - nb;
  });
}

/** The API's base URL: the document's first server, made absolute against the page's origin. */
export function apiBaseUrl(doc: OpenApiDocument, origin: string): string {
  const server = doc.servers?.[0]?.url ?? '/v1';
  try {
    return new URL(server, origin).toString().replace(/\/$/, '');
  } catch {
    return `${origin}/v1`;
  }
}
