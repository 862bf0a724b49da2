import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { config } from './config';
import { ERROR_KINDS, type ErrorKind } from './errors';
import { appRouter } from './routers';

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

const STATUS_KIND: Record<number, ErrorKind> = Object.fromEntries(
  Object.entries(ERROR_KINDS).map(([kind, { status }]) => [status, kind as ErrorKind]),
);

function problemResponse(status: number): Json {
  const kind = STATUS_KIND[status];
  const headers: Json =
    status === 429 ? { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } } } : {};
  return {
    description: kind ? ERROR_KINDS[kind].title : 'Error',
    ...(status === 429 ? { headers } : {}),
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
  };
}

const RATE_LIMIT_HEADERS: Json = {
  'RateLimit-Limit': { description: 'Requests allowed in a burst.', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the current burst.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the burst allowance is full again.', schema: { type: 'integer' } },
};

function errorStatusesFor(method: string, path: string, secured: boolean): number[] {
  const statuses = [400];
  if (secured) statuses.push(401, 403, 429);
  if (path.includes('{')) statuses.push(404);
  if (method === 'post') statuses.push(409, 413, 415, 422);
  if (method === 'patch') statuses.push(409, 413, 415);
  if (method === 'delete') statuses.push(409);
  statuses.push(500);
  return statuses;
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
        description: 'An API key: sk_test_… or sk_live_…. POST /invitations/accept takes the invitation token (inv_…) instead.',
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

  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(item as Record<string, Json>)) {
      if (!operation || typeof operation !== 'object' || !('responses' in operation)) continue;
      const secured = !(Array.isArray(operation.security) && operation.security.length === 0);
      const responses = operation.responses as Record<string, Json>;
      for (const code of Object.keys(responses)) if (code === 'default' || Number(code) >= 400) delete responses[code];
      for (const status of errorStatusesFor(method, path, secured)) responses[String(status)] = problemResponse(status);
      const parameters = ((operation.parameters as Json[] | undefined) ??= []);
      if (method === 'post') {
        parameters.push({
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'A unique value per logical operation (e.g. a UUID). A retry with the same key replays the first response with `Idempotent-Replayed: true`; remembered 24 h.',
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
      // Procedures whose JSON output is `null` send bytes (ctx.http.raw): describe them as audio.
      const json = ((responses['200']?.content as Json | undefined)?.['application/json'] as Json | undefined)?.schema as Json | undefined;
      if (json?.type === 'null') {
        const binary = { schema: { type: 'string', format: 'binary' } };
        responses['200'] = { ...responses['200'], content: { 'audio/wav': binary, 'audio/mpeg': binary } };
        if (method === 'get') {
          responses['206'] = { description: 'Partial content (a Range request)', content: { 'audio/wav': binary, 'audio/mpeg': binary } };
          responses['416'] = problemResponse(416);
          // The audio of a creative that is not ready (generating, failed) answers 409.
          responses['409'] = problemResponse(409);
        } else {
          // Audio made on request (the preview): a failing voice service answers 502.
          responses['502'] = problemResponse(502);
        }
      }
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
