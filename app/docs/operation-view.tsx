import { CopyButton } from './copy-button';
import { errorTypeForStatus } from './error-catalog';
import { Code, InlineText, Paragraphs } from './inline-text';
import {
  constraintNotes,
  curlExample,
  fieldRows,
  jsonBody,
  refName,
  sortedResponses,
  typeLabel,
  type FieldRow,
  type OpenApiDocument,
  type OperationEntry,
  type Response,
} from './openapi-model';

function Notes({ notes }: { notes: string[] }) {
  if (notes.length === 0) return null;
  return (
    <span className="notes">
      {notes.map((n, i) => (
        <span key={i}>
          {' '}
          <InlineText text={n} />
        </span>
      ))}
    </span>
  );
}

function Requirement({ required }: { required: boolean }) {
  return required ? <strong className="required">required</strong> : <span>optional</span>;
}

/**
 * Fields as two columns — the field with its type and whether it is required,
 * then its description — which stays readable at 390 px. Nested fields are indented.
 */
export function FieldTable({ rows, caption }: { rows: FieldRow[]; caption: string }) {
  return (
    <table className="fields">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Description</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.name}>
            <th scope="row" className="field-name" style={row.depth ? { paddingLeft: `${0.5 + row.depth}rem` } : undefined}>
              <Code>{row.name}</Code>
              <span className="field-meta">
                <Code className="type">{row.type}</Code> · <Requirement required={row.required} />
              </span>
            </th>
            <td>
              <InlineText text={row.description} />
              <Notes notes={row.notes} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ParameterTable({ doc, entry }: { doc: OpenApiDocument; entry: OperationEntry }) {
  const label = `${entry.method.toUpperCase()} ${entry.path}`;
  return (
    <table className="fields">
      <caption className="visually-hidden">Parameters of {label}</caption>
      <thead>
        <tr>
          <th scope="col">Parameter</th>
          <th scope="col">Description</th>
        </tr>
      </thead>
      <tbody>
        {entry.parameters.map((p) => (
          <tr key={`${p.in}:${p.name}`}>
            <th scope="row" className="field-name">
              <Code>{p.name}</Code>
              <span className="field-meta">
                {p.in} · <Code className="type">{typeLabel(doc, p.schema)}</Code> ·{' '}
                <Requirement required={Boolean(p.required) || p.in === 'path'} />
              </span>
            </th>
            <td>
              <InlineText text={p.description ?? p.schema?.description ?? ''} />
              <Notes notes={constraintNotes(doc, p.schema)} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ResponseDetails({ doc, response }: { doc: OpenApiDocument; response: Response }) {
  const media = Object.entries(response.content ?? {});
  const headers = Object.keys(response.headers ?? {});
  return (
    <>
      {media.map(([type, m]) => (
        <span key={type} className="response-meta">
          Body: <Code className="type">{refName(m.schema) ?? typeLabel(doc, m.schema)}</Code> ({type})
        </span>
      ))}
      {headers.length > 0 ? (
        <span className="response-meta">
          Headers:{' '}
          {headers.map((h, i) => (
            <span key={h}>
              {i > 0 ? ', ' : ''}
              <Code>{h}</Code>
            </span>
          ))}
        </span>
      ) : null}
    </>
  );
}

function ResponsesTable({ doc, entry }: { doc: OpenApiDocument; entry: OperationEntry }) {
  const label = `${entry.method.toUpperCase()} ${entry.path}`;
  return (
    <table className="responses">
      <caption className="visually-hidden">Responses of {label}</caption>
      <thead>
        <tr>
          <th scope="col">Status</th>
          <th scope="col">Description</th>
        </tr>
      </thead>
      <tbody>
        {sortedResponses(entry.operation).map(([code, response]) => {
          const isError = Number(code) >= 400;
          const error = isError ? errorTypeForStatus(Number(code)) : undefined;
          return (
            <tr key={code}>
              <th scope="row">
                {error ? (
                  <a href={`/docs/errors/${error.slug}`} className="status status-error">
                    {code}
                  </a>
                ) : (
                  <span className={`status ${isError ? 'status-error' : 'status-ok'}`}>{code}</span>
                )}
              </th>
              <td>
                <InlineText text={response.description ?? ''} />
                <ResponseDetails doc={doc} response={response} />
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** The first 2xx response with a JSON body, whose fields are worth listing. */
function successSchema(entry: OperationEntry) {
  for (const [code, response] of sortedResponses(entry.operation)) {
    if (!code.startsWith('2')) continue;
    const schema = response.content?.['application/json']?.schema;
    if (schema) return { code, schema };
  }
  return undefined;
}

/** One operation: what it does, what it takes, what it answers, and how to call it. */
export function OperationView({ doc, entry, baseUrl }: { doc: OpenApiDocument; entry: OperationEntry; baseUrl: string }) {
  const { operation: op } = entry;
  const method = entry.method.toUpperCase();
  const label = `${method} ${entry.path}`;
  const body = jsonBody(op);
  const bodyRows = body?.schema ? fieldRows(doc, body.schema) : [];
  const success = successSchema(entry);
  const successRows = success ? fieldRows(doc, success.schema) : [];
  const curl = curlExample(doc, baseUrl, entry);
  const titleId = `${entry.anchor}-title`;

  return (
    <article className="operation" id={entry.anchor} aria-labelledby={titleId}>
      <h4 id={titleId} className="operation-title">
        <span className={`method method-${entry.method}`}>{method}</span> <Code className="operation-path">{entry.path}</Code>
      </h4>
      {op.summary ? (
        <p className="summary">
          <InlineText text={op.summary} />
        </p>
      ) : null}
      <Paragraphs text={op.description} />
      {op.deprecated ? <p className="callout">Deprecated: avoid in new integrations.</p> : null}
      {!entry.secured ? <p className="muted">No API key needed.</p> : null}

      {entry.parameters.length > 0 ? (
        <>
          <h5>Parameters</h5>
          <ParameterTable doc={doc} entry={entry} />
        </>
      ) : null}

      {body ? (
        <>
          <h5>Request body</h5>
          <p className="muted">
            JSON{op.requestBody?.required ? '' : ' (optional)'}. Unknown fields are refused with 400.
          </p>
          {bodyRows.length > 0 ? <FieldTable rows={bodyRows} caption={`Request body fields of ${label}`} /> : null}
        </>
      ) : null}

      <h5>Responses</h5>
      <ResponsesTable doc={doc} entry={entry} />
      {successRows.length > 0 && success ? (
        <details className="response-fields">
          <summary>
            Fields of the {success.code} response (<Code>{refName(success.schema) ?? typeLabel(doc, success.schema)}</Code>)
          </summary>
          <FieldTable rows={successRows} caption={`Fields of the ${success.code} response of ${label}`} />
        </details>
      ) : null}

      <div className="example-head">
        <h5>Example</h5>
        <CopyButton text={curl} label={`curl example for ${label}`} />
      </div>
      <pre className="code">
        <code>{curl}</code>
      </pre>
    </article>
  );
}
