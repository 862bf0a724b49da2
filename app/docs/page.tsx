import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { ApiReference, OPENAPI_URL } from './api-reference';
import { CodeBlock } from './code-block';
import { ERROR_TYPES } from './error-catalog';
import { WebhookEvents } from './event-catalog';
import { Code, InlineText } from './inline-text';

export const metadata: Metadata = {
  title: 'API reference — Ad Network Service',
  description:
    'Operations, authentication, pagination, idempotency, optimistic locking, rate limits, error types and webhook event types of the /v1 API.',
};

const SECTIONS = [
  { id: 'introduction', title: 'Introduction' },
  { id: 'authentication', title: 'Authentication' },
  { id: 'pagination', title: 'Pagination' },
  { id: 'idempotency', title: 'Idempotency' },
  { id: 'optimistic-locking', title: 'Optimistic locking' },
  { id: 'rate-limits', title: 'Rate limits' },
  { id: 'errors', title: 'Errors' },
  { id: 'webhook-events', title: 'Webhook events' },
  { id: 'operations', title: 'Operations' },
] as const;

const PROBLEM_EXAMPLE = `HTTP/1.1 404 Not Found
Content-Type: application/problem+json

{
  "type": "$BASE_URL/docs/errors/not-found",
  "title": "Not found",
  "status": 404,
  "detail": "Network not found."
}`;

const VALIDATION_EXAMPLE = `{
  "type": "$BASE_URL/docs/errors/bad-request",
  "title": "Bad request",
  "status": 400,
  "detail": "Invalid request: name: name must not be blank.",
  "errors": [{ "path": "name", "message": "name must not be blank." }]
}`;

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="doc-section">
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
    </section>
  );
}

export default function DocsPage() {
  return (
    <div className="docs-shell">
      <nav aria-label="On this page" className="toc">
        <p className="toc-title" aria-hidden="true">
          On this page
        </p>
        <ul>
          {SECTIONS.map((s) => (
            <li key={s.id}>
              <a href={`#${s.id}`}>{s.title}</a>
            </li>
          ))}
        </ul>
      </nav>

      <main id="main" tabIndex={-1} className="docs-main">
        <h1>API reference</h1>

        <Section id="introduction" title="Introduction">
          <p>
            The API lives under <code>/v1</code>. Requests and responses are JSON (<code>Content-Type: application/json</code>); errors are{' '}
            <code>application/problem+json</code>. The machine-readable description is the OpenAPI 3.1 document at{' '}
            <a href={OPENAPI_URL}>
              <code>{OPENAPI_URL}</code>
            </a>
            , which this page is generated from; use it to generate clients or to validate requests.
          </p>
          <ul>
            <li>
              Ids are prefixed strings that sort by creation time: <code>net_…</code>, <code>cmp_…</code>, <code>off_…</code>, <code>key_…</code>,{' '}
              <code>whk_…</code>.
            </li>
            <li>
              Timestamps are ISO 8601 in UTC (<code>2026-11-21T10:00:00.000Z</code>). Money is an integer amount in minor units with an ISO currency
              code (<code>price_cents</code>, <code>currency</code>).
            </li>
            <li>
              Creating a resource answers <code>201</code> with the resource. Unknown request fields are refused with <code>400</code> rather than
              ignored. Bodies larger than 1 MiB are refused with <code>413</code>.
            </li>
          </ul>
          <p>
            In the examples on this page, <code>$BASE_URL</code> is the address of this service (for example <code>http://localhost:3000</code>) and{' '}
            <code>$API_KEY</code> is your API key.
          </p>
        </Section>

        <Section id="authentication" title="Authentication">
          <p>
            Every request except <code>GET {OPENAPI_URL}</code> carries an API key as a bearer token:
          </p>
          <CodeBlock label="authentication example" code={`curl "$BASE_URL/v1/me" -H "Authorization: Bearer $API_KEY"`} />
          <ul>
            <li>
              Keys start with <code>sk_test_</code> in test mode and <code>sk_live_</code> in live mode, followed by at least 32 random letters and
              digits. A key is shown once, when it is created; the service keeps only a hash. Keep keys on your servers, never in a browser or an app.
            </li>
            <li>
              A key has a role per network: <code>read_only</code> or <code>administrator</code>. A <code>super_user</code> key may do everything,
              including creating networks. A person’s key never exceeds that person’s current membership.
              <code> GET /v1/me</code> shows what the calling key may do.
            </li>
            <li>
              A missing, unknown, revoked or expired key answers <a href="/docs/errors/unauthorized">401</a>. A valid key without the needed role
              answers <a href="/docs/errors/forbidden">403</a>. A resource in a network the key cannot see answers{' '}
              <a href="/docs/errors/not-found">404</a> when addressed by its own id.
            </li>
          </ul>
        </Section>

        <Section id="pagination" title="Pagination">
          <p>
            List operations answer <code>{'{ "items": [...], "next_cursor": "..." }'}</code>, ordered by id (creation order).
          </p>
          <ul>
            <li>
              <code>limit</code> sets the page size: 1 to 200, default 50. A value outside that range answers{' '}
              <a href="/docs/errors/bad-request">400</a>.
            </li>
            <li>
              To get the next page, send the <code>next_cursor</code> you received as <code>cursor</code>, with the same filters.{' '}
              <code>next_cursor</code> is <code>null</code> on the last page.
            </li>
            <li>Cursors are opaque: do not build, parse or modify them. A changed cursor, or one from another list, answers 400.</li>
            <li>
              <strong>The whole list as CSV:</strong> send <code>Accept: text/csv</code> to any list operation and the answer is every row, with the
              same filters, as one file streamed page by page (nested fields flattened as <code>owner.type</code>). Each page is authorized as its own
              request: if the key loses access during the export, the transfer is cut rather than ending short. Text starting with <code>=</code>,{' '}
              <code>+</code>, <code>-</code> or <code>@</code> is prefixed with <code>&apos;</code>, so a spreadsheet does not run it as a formula.
            </li>
          </ul>
          <CodeBlock
            label="pagination example"
            code={`curl "$BASE_URL/v1/networks?limit=2" -H "Authorization: Bearer $API_KEY"
# {"items":[{"id":"net_01…",…},{"id":"net_01…",…}],"next_cursor":"bmV0XzAx….Xk3f…"}

curl "$BASE_URL/v1/networks?limit=2&cursor=bmV0XzAx….Xk3f…" -H "Authorization: Bearer $API_KEY"
# {"items":[{"id":"net_01…",…}],"next_cursor":null}

curl "$BASE_URL/v1/networks" -H "Authorization: Bearer $API_KEY" -H "Accept: text/csv" -o networks.csv`}
          />
        </Section>

        <Section id="idempotency" title="Idempotency">
          <p>
            Networks fail and requests time out. To retry a <code>POST</code> without doing its work twice, send an <code>Idempotency-Key</code>{' '}
            header: a unique value per operation, such as a UUID (1 to 255 visible ASCII characters).
          </p>
          <ul>
            <li>The key is remembered for 24 hours, per API key, together with the method, path and body of the request.</li>
            <li>
              Retrying with the same key and the same request returns the first response (same status and body) with the header{' '}
              <code>Idempotent-Replayed: true</code>; nothing is done again.
            </li>
            <li>
              Using the same key for a different request answers <a href="/docs/errors/idempotency-key-reused">422</a>.
            </li>
            <li>
              Retrying while the first request is still being processed answers <a href="/docs/errors/conflict">409</a>; retry a moment later with the
              same key.
            </li>
            <li>Server errors (5xx) are not remembered, so a retry with the same key runs the operation again.</li>
          </ul>
          <CodeBlock
            label="idempotency example"
            code={`curl -X POST "$BASE_URL/v1/networks" \\
  -H "Authorization: Bearer $API_KEY" \\
  -H "Content-Type: application/json" \\
  -H "Idempotency-Key: 5f0c7a9e-3b1d-4c2a-9f4e-8d6b1a2c3e4f" \\
  -d '{"name":"Example network"}'`}
          />
        </Section>

        <Section id="optimistic-locking" title="Optimistic locking">
          <p>
            Every resource that can change has an integer <code>version</code>, and responses that return it carry it as an <code>ETag</code> header (
            <code>ETag: &quot;3&quot;</code>).
          </p>
          <ul>
            <li>
              <code>PATCH</code> and <code>DELETE</code> take the version you read, either as <code>If-Match: &quot;3&quot;</code> or as{' '}
              <code>version</code> in the body.
            </li>
            <li>
              If the resource has changed since, the write answers <a href="/docs/errors/conflict">409</a> and changes nothing: read the resource
              again, re-apply your change and retry with the new version.
            </li>
            <li>Without a version the write still cannot interleave with another one, but it may overwrite a change you have not seen.</li>
          </ul>
          <CodeBlock
            label="optimistic locking example"
            code={`curl -X PATCH "$BASE_URL/v1/networks/$NETWORK_ID" \\
  -H "Authorization: Bearer $API_KEY" \\
  -H "Content-Type: application/json" \\
  -H 'If-Match: "3"' \\
  -d '{"name":"New name"}'`}
          />
        </Section>

        <Section id="rate-limits" title="Rate limits">
          <p>
            Requests are limited with token buckets. Every request spends from its API key’s bucket and from its owner’s: all keys of one person or
            service account share one budget, so more keys do not add to it. A request on a network (a path under{' '}
            <code>/v1/networks/{'{networkId}'}</code>) also spends from that network’s budget, which every key acting on it shares. Failed
            authentication is limited per client address. Responses carry the state of the tightest of these buckets:
          </p>
          <ul>
            <li>
              <code>RateLimit-Limit</code>: the largest burst allowed.
            </li>
            <li>
              <code>RateLimit-Remaining</code>: requests left in the current burst.
            </li>
            <li>
              <code>RateLimit-Reset</code>: seconds until the burst allowance is full again.
            </li>
          </ul>
          <p>
            Over the limit, the API answers <a href="/docs/errors/rate-limited">429</a> with <code>Retry-After</code> (seconds) and a{' '}
            <code>detail</code> that says which budget was spent. Wait that long before retrying, and slow down when <code>RateLimit-Remaining</code>{' '}
            gets low. The operator of the service configures the limits.
          </p>
          <p>
            Networks also have quotas: webhook subscriptions and pending invitations per network, and active API keys per person or service account.
            Creating one more than a quota allows answers <a href="/docs/errors/quota-exceeded">409</a>; remove one that is no longer used first.
          </p>
        </Section>

        <Section id="errors" title="Errors">
          <p>
            Every error answers with a non-2xx status and a problem document (RFC 9457) with exactly these fields: <code>type</code> (a URL naming the
            error type, which opens its explanation), <code>title</code>, <code>status</code> and <code>detail</code> (what went wrong this time, for
            people). Validation errors add <code>errors</code>, one <code>{'{ "path", "message" }'}</code> per invalid field. Branch on{' '}
            <code>status</code> or <code>type</code>, never on <code>detail</code>. Every response carries a <code>Request-Id</code> header; quote it
            when you report a problem.
          </p>
          <CodeBlock label="error response example" code={PROBLEM_EXAMPLE} copy={false} />
          <CodeBlock label="validation error example" code={VALIDATION_EXAMPLE} copy={false} />
          <table className="errors-table">
            <caption>Error types</caption>
            <thead>
              <tr>
                <th scope="col">Status</th>
                <th scope="col">Type</th>
                <th scope="col">Meaning</th>
              </tr>
            </thead>
            <tbody>
              {ERROR_TYPES.map((e) => (
                <tr key={e.slug} id={`error-${e.slug}`}>
                  <td>
                    <span className="status status-error">{e.status}</span>
                  </td>
                  <th scope="row">
                    <a href={`/docs/errors/${e.slug}`}>
                      <Code>{e.slug}</Code>
                    </a>
                    <span className="error-title">{e.title}</span>
                  </th>
                  <td>
                    <InlineText text={e.summary} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Section>

        <Section id="webhook-events" title="Webhook events">
          <WebhookEvents />
        </Section>

        <Section id="operations" title="Operations">
          <noscript>
            <p>
              The operations are listed from the OpenAPI document by a script. Without JavaScript, read the document itself at{' '}
              <a href={OPENAPI_URL}>{OPENAPI_URL}</a>.
            </p>
          </noscript>
          <ApiReference />
        </Section>
      </main>
    </div>
  );
}
