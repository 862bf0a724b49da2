import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { config } from './config';
import { ERROR_KINDS, type ErrorKind } from './errors';
import { appRouter } from './routers';
import { takesIdempotencyKey, type Gate, type RouteMeta } from './trpc';

type Json = Record<string, unknown>;

const PROBLEM_SCHEMA: Json = {
  type: 'object',
  description: 'The error envelope of every non-2xx response (RFC 9457 problem details).',
  required: ['type', 'title', 'status', 'detail'],
  properties: {
    type: { type: 'string', format: 'uri', description: 'Identifies the error type; ends in /errors/<slug>.' },
    title: { type: 'string', description: 'Short summary of the error type.' },
    status: { type: 'integer', description: 'The HTTP status.' },
    detail: { type: 'string', description: 'Explanation of this occurrence.' },
    errors: {
      type: 'array',
      description: 'Per-field problems, for validation errors.',
      items: {
        type: 'object',
        required: ['path', 'message'],
        properties: { path: { type: 'string' }, message: { type: 'string' } },
      },
    },
  },
};

/**
 * An error response: the envelope, when each kind of this status occurs on the operation, and an
 * example body of each kind (from ERROR_KINDS, as the API answers it). Two kinds can share a status
 * (409: `conflict`, `quota-exceeded`, `brand-safety`); the response then describes and exemplifies each.
 */
function problemResponse(kinds: Array<[ErrorKind, string[]]>): Json {
  const { status } = ERROR_KINDS[kinds[0]![0]];
  const headers: Json = { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } } };
  // The example names an example host: the document reads the same wherever it is served.
  const exampleOf = (kind: ErrorKind) => ({
    type: `https://ads.example.com/docs/errors/${kind}`,
    title: ERROR_KINDS[kind].title,
    status,
    detail: 'What went wrong with this request, in a sentence.',
  });
  const examples =
    kinds.length === 1
      ? { example: exampleOf(kinds[0]![0]) }
      : { examples: Object.fromEntries(kinds.map(([kind]) => [kind, { summary: ERROR_KINDS[kind].title, value: exampleOf(kind) }])) };
  return {
    description: kinds.map(([kind, reasons]) => `${ERROR_KINDS[kind].title}: ${reasons.join(' Or: ')}`).join('\n\n'),
    ...(status === 429 ? { headers } : {}),
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' }, ...examples } },
  };
}

const RATE_LIMIT_HEADERS: Json = {
  'RateLimit-Limit': { description: 'Requests allowed in a burst.', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the current burst.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the burst allowance is full again.', schema: { type: 'integer' } },
};

const KEY_REFUSED = 'The API key is missing, malformed, unknown, revoked or expired (also when that happens while a write runs: it is rolled back).';

/** What the gate before the handler can answer, whatever the procedure (server/trpc.ts). */
const GATE_ERRORS: Record<Gate, Partial<Record<ErrorKind, string>>> = {
  authenticated: {
    unauthorized: KEY_REFUSED,
    forbidden: 'A write: the key’s access narrowed while it ran (it is rolled back).',
    'rate-limited':
      'The key spent its rate limit, or its owner’s budget (shared by all their keys), or its address failed to authenticate too often.',
  },
  network: {
    unauthorized: KEY_REFUSED,
    forbidden:
      'The key has no access to this network, or a role below the one this operation needs (also when its access narrows while a write runs: it is rolled back).',
    'not-found': 'The network does not exist (told only to super_user keys; others get 403).',
    'rate-limited':
      'The key spent its rate limit, or its owner’s or the network’s budget (each shared by many keys), or its address failed to authenticate too often.',
  },
  'super-user': {
    unauthorized: KEY_REFUSED,
    forbidden: 'This operation needs a super_user key.',
    'rate-limited':
      'The key spent its rate limit, or its owner’s budget (shared by all their keys), or its address failed to authenticate too often.',
  },
  invitation: {
    unauthorized: 'The credential is missing or malformed.',
    'rate-limited': 'The credential spent its rate limit (an API key: or its owner’s budget), or its address failed to authenticate too often.',
  },
  'sign-in-request': {
    'rate-limited': 'Too many sign-in links asked for from this client address, or for this email address (SIGN_IN_REQUESTS_PER_HOUR).',
  },
  'passkey-options': {
    'rate-limited': 'Too many challenges asked for from this client address, or the address failed to authenticate too often.',
  },
  passkey: {
    'rate-limited': 'The address failed to authenticate too often.',
  },
  unsubscribe: {
    unauthorized: 'The unsubscribe link’s token is missing or was not signed by this service (counts against the failed-authentication limit).',
    'rate-limited': 'The person the link is for spent their budget (shared by all their keys), or the address failed to authenticate too often.',
  },
  'sign-in-link': {
    unauthorized: 'The sign-in link’s token is missing, malformed or unknown (counts against the failed-authentication limit).',
    'rate-limited': 'The token spent its rate limit, or its address failed to authenticate too often.',
  },
  'voice-consent-link': {
    'not-found':
      'The voice consent link’s token is missing, malformed or unknown, or the link has expired (counts against the failed-authentication limit).',
    'rate-limited': 'The token spent its rate limit, or its address failed to authenticate too often.',
  },
  'creative-review-link': {
    'not-found':
      'The review link’s token is missing, malformed or unknown, or the link has expired or been superseded by a later revision (counts against ' +
      'the failed-authentication limit).',
    'rate-limited': 'The token spent its rate limit, or its address failed to authenticate too often.',
  },
};

/** What reading the request can answer, by method (server/transport/rest.ts reads bodies of POST and PATCH). */
function transportErrors(method: string, meta: RouteMeta): Partial<Record<ErrorKind, string>> {
  const body = { 'payload-too-large': 'The body is over 1 MiB.', 'unsupported-media-type': 'The body is not JSON.' };
  const clash = 'The write clashed with a concurrent change (a deadlock in the database) and was rolled back; retry it.';
  if (method === 'delete') return { conflict: clash };
  if (method === 'patch') return { ...body, conflict: clash };
  if (method !== 'post') return {};
  if (!takesIdempotencyKey(meta)) return body;
  return {
    ...body,
    conflict: `A request with the same Idempotency-Key is still running. Or: ${clash.charAt(0).toLowerCase()}${clash.slice(1)}`,
    'idempotency-key-reused': 'The Idempotency-Key was used for a different request.',
  };
}

/** Every error an operation can answer, each with when it occurs: the procedure's declarations first. */
export function errorKindsOf(method: string, meta: RouteMeta): Map<ErrorKind, string[]> {
  const kinds = new Map<ErrorKind, string[]>();
  const add = (errors: Partial<Record<ErrorKind, string>> | undefined) => {
    for (const [kind, reason] of Object.entries(errors ?? {}) as Array<[ErrorKind, string]>) kinds.set(kind, [...(kinds.get(kind) ?? []), reason]);
  };
  add({ 'bad-request': 'The input is invalid; `errors` lists the fields at fault.' });
  add(meta.errors);
  add(meta.gate ? GATE_ERRORS[meta.gate] : undefined);
  add(transportErrors(method, meta));
  add({ internal: 'An unexpected failure; safe to retry.' });
  return new Map([...kinds].sort(([a], [b]) => ERROR_KINDS[a].status - ERROR_KINDS[b].status));
}

/** Whether an operation answers with a resource that carries a `version` (so If-Match applies). */
function returnsVersioned(doc: OpenAPIObject, responses: Record<string, Json>): boolean {
  const schema = ((responses['200']?.content as Json | undefined)?.['application/json'] as Json | undefined)?.schema as Json | undefined;
  const ref = typeof schema?.$ref === 'string' ? schema.$ref.split('/').pop()! : undefined;
  const resolved = (ref ? doc.components?.schemas?.[ref] : schema) as Json | undefined;
  return Boolean((resolved?.properties as Json | undefined)?.version);
}

let cached: OpenAPIObject | undefined;

/**
 * The OpenAPI 3.1 document, generated from the procedures and then completed:
 * every error response is the problem envelope, security is bearer, POSTs
 * accept Idempotency-Key, writes answer with ETag.
 */
export function openApiDocument(): OpenAPIObject {
  if (cached) return cached;
  const doc = generateOpenApiDocument(appRouter, {
    title: 'Ad Network Service API',
    version: '1.0.0',
    description:
      'The API of the podcast ad network service. Every request carries `Authorization: Bearer <API key>`. ' +
      'Errors use `application/problem+json` with `type`, `title`, `status`, `detail`. Lists are cursor-paginated.',
    baseUrl: `${config().publicUrl}/v1`,
    securitySchemes: {
      bearerAuth: {
        type: 'http',
        scheme: 'bearer',
        description:
          'An API key: sk_test_… or sk_live_…. GET /invitations/current and POST /invitations/accept take the invitation token (inv_…) instead, ' +
          'POST /sign-in the sign-in link’s token (sil_…), /voice-consents/current a host’s voice consent link token (vcl_…), and ' +
          '/creative-reviews/current a host’s review link token (crl_…). ' +
          'POST /sign-in/email takes none.',
      },
    },
  });
  const components = (doc.components ??= {});
  // trpc-to-openapi's own error schemas describe its body, not ours: replaced by Problem.
  const schemas = Object.entries(components.schemas ?? {}).filter(([name]) => !name.startsWith('error.'));
  components.schemas = { ...Object.fromEntries(schemas), Problem: PROBLEM_SCHEMA };
  doc.security = [{ bearerAuth: [] }];
  doc.info.license = { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' };
  doc.servers = [{ url: `${config().publicUrl}/v1` }];
  // The tags in the order of the router, named for people ("api keys" reads "Api keys").
  const tagNames = new Set(
    Object.values(doc.paths ?? {}).flatMap((item) => Object.values(item as Record<string, Json>).flatMap((op) => (op?.tags as string[]) ?? [])),
  );
  doc.tags = [...tagNames].map((name) => ({ name, 'x-displayName': name[0]!.toUpperCase() + name.slice(1) }));

  const metaOf = new Map(
    Object.values(appRouter._def.procedures).map((procedure) => {
      const meta = (procedure as unknown as { _def: { meta?: RouteMeta } })._def.meta ?? {};
      return [`${meta.openapi?.method} ${meta.openapi?.path}`, meta];
    }),
  );
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(item as Record<string, Json>)) {
      if (!operation || typeof operation !== 'object' || !('responses' in operation)) continue;
      const secured = !(Array.isArray(operation.security) && operation.security.length === 0);
      const responses = operation.responses as Record<string, Json>;
      for (const code of Object.keys(responses)) if (code === 'default' || Number(code) >= 400) delete responses[code];
      const meta = metaOf.get(`${method.toUpperCase()} ${path}`) ?? {};
      const errorKinds = errorKindsOf(method, meta);
      const byStatus = new Map<number, Array<[ErrorKind, string[]]>>();
      for (const [kind, reasons] of errorKinds) {
        const status = ERROR_KINDS[kind].status;
        byStatus.set(status, [...(byStatus.get(status) ?? []), [kind, reasons]]);
      }
      for (const [status, kinds] of byStatus) responses[String(status)] = problemResponse(kinds);
      const parameters = ((operation.parameters as Json[] | undefined) ??= []);
      if (method === 'post' && takesIdempotencyKey(meta)) {
        parameters.push({
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'A unique value per logical operation (e.g. a UUID). A retry with the same key replays the first response with `Idempotent-Replayed: true`; remembered 24 h.',
          schema: { type: 'string', maxLength: 255 },
        });
      }
      if (method === 'patch' || (method === 'delete' && returnsVersioned(doc, responses))) {
        parameters.push({
          name: 'If-Match',
          in: 'header',
          required: false,
          description: 'The ETag you read. The write fails with 409 if the resource has changed since.',
          schema: { type: 'string' },
        });
      }
      if (parameters.length === 0) delete operation.parameters;
      for (const [code, response] of Object.entries(responses)) {
        if (Number(code) < 300 && secured) response.headers = { ...(response.headers as Json | undefined), ...RATE_LIMIT_HEADERS };
      }
      // An operation that also takes `text/csv` (server/transport/csv.ts, parseCsvBody): its list field's rows, as CSV.
      const csv = ((operation.requestBody as Json | undefined)?.content as Json | undefined)?.['text/csv'] as Json | undefined;
      if (csv) {
        const properties = ((csv.schema as Json | undefined)?.properties ?? {}) as Record<string, Json>;
        const list = Object.values(properties).find((p) => p.type === 'array');
        const items = list?.items as Json | undefined;
        const row = (typeof items?.$ref === 'string' ? doc.components?.schemas?.[items.$ref.split('/').pop()!] : items) as Json | undefined;
        const columns = Object.keys((row?.properties as Json | undefined) ?? {});
        csv.schema = {
          type: 'string',
          description: `The list as CSV: one row per item, its fields in this order: ${columns.join(', ')} (a first line naming them is a header and skipped).`,
        };
      }
      // Procedures whose JSON output is `null` send bytes (ctx.http.raw): describe them as audio.
      const json = ((responses['200']?.content as Json | undefined)?.['application/json'] as Json | undefined)?.schema as Json | undefined;
      if (json?.type === 'null') {
        const binary = { schema: { type: 'string', format: 'binary' } };
        responses['200'] = { ...responses['200'], content: { 'audio/wav': binary, 'audio/mpeg': binary } };
        if (method === 'get') {
          responses['206'] = { description: 'Partial content (a Range request)', content: { 'audio/wav': binary, 'audio/mpeg': binary } };
        }
      }
      // Each error answer links to its page under /docs/errors (what it means, what to do), on the
      // site that serves this document (relative, so the document is the same whatever its host).
      const links = [...errorKinds.keys()].map((kind) => `[${ERROR_KINDS[kind].status} ${ERROR_KINDS[kind].title}](/docs/errors/${kind})`);
      operation.description = [operation.description, `Errors: ${links.join(' · ')}.`].filter(Boolean).join('\n\n');
      // A created resource answers 201, and work scheduled for later 202, not 200.
      const success = String((responses['200'] as Json | undefined)?.description);
      if (method === 'post' && responses['200'] && /^(Created|Accepted)/.test(success)) {
        responses[success.startsWith('Created') ? '201' : '202'] = responses['200'];
        delete responses['200'];
      }
    }
  }
  cached = doc;
  return doc;
}
