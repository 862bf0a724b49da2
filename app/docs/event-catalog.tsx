import { Fragment } from 'react';
import { eventCatalog } from '@/domain/events';
import { CodeBlock } from './code-block';
import { dataFields } from './event-fields';
import { Code } from './inline-text';

/** A field name that may wrap after its underscores only (`withdrawn_creative_ids` at 390 px), never inside a word. */
function breakableName(name: string) {
  return name.split('_').map((part, i, parts) => (
    <Fragment key={i}>
      {part}
      {i < parts.length - 1 ? (
        <>
          _<wbr />
        </>
      ) : null}
    </Fragment>
  ));
}

/** The "Webhook events" guide: every type of the catalog GET /v1/event-types serves, with its fields and an example. */
export function WebhookEvents() {
  return (
    <>
      <p>
        A webhook subscription receives, for each event of a type it subscribes to, a <code>POST</code> whose JSON body is an envelope:{' '}
        <code>id</code> (the delivery id), <code>type</code>, <code>occurred_at</code> and <code>data</code>, whose fields depend on the type, as
        listed here. The same catalog, with each JSON Schema, is served by{' '}
        <a href="#tag/events/events-types">
          <code>GET /v1/event-types</code>
        </a>
        . Signatures, retries and test events are described in <code>docs/webhooks.md</code> in the repository.
      </p>
      {eventCatalog().map((event) => {
        const headingId = `event-${event.type}-title`;
        return (
          <section key={event.type} id={`event-${event.type}`} aria-labelledby={headingId} className="event-type">
            <h3 id={headingId}>
              <Code>{event.type}</Code>
            </h3>
            <p>{event.description}</p>
            <table className="fields-table">
              <caption>
                Fields of <code>data</code>
              </caption>
              <thead>
                <tr>
                  <th scope="col">Field</th>
                  <th scope="col">Type</th>
                  <th scope="col">Description</th>
                </tr>
              </thead>
              <tbody>
                {dataFields(event.data_schema).map((field) => (
                  <tr key={field.name}>
                    <th scope="row">
                      <code className="field-name">{breakableName(field.name)}</code>
                      {field.required ? null : <span className="field-note">optional</span>}
                    </th>
                    <td>{field.type}</td>
                    <td>{field.description}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <details className="schema">
              <summary>
                JSON Schema of <code>data</code>
              </summary>
              <CodeBlock label={`${event.type} data schema`} code={JSON.stringify(event.data_schema, null, 2)} copy={false} />
            </details>
            <h4>Example envelope</h4>
            <CodeBlock label={`${event.type} example envelope`} code={JSON.stringify(event.example, null, 2)} />
          </section>
        );
      })}
    </>
  );
}
