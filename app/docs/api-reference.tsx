'use client';

import { useCallback, useEffect, useState } from 'react';
import { Code, Paragraphs } from './inline-text';
import { apiBaseUrl, groupOperations, type OpenApiDocument, type TagGroup } from './openapi-model';
import { OperationView } from './operation-view';

export const OPENAPI_URL = '/v1/openapi.json';

type State =
  | { kind: 'loading' }
  | { kind: 'failed'; message: string }
  | { kind: 'ready'; doc: OpenApiDocument; groups: TagGroup[]; baseUrl: string };

async function loadDocument(): Promise<OpenApiDocument> {
  const response = await fetch(OPENAPI_URL, { headers: { Accept: 'application/json' }, cache: 'no-store' });
  if (!response.ok) throw new Error(`${OPENAPI_URL} answered ${response.status}.`);
  const doc = (await response.json()) as OpenApiDocument;
  if (!doc || typeof doc !== 'object' || !doc.paths) throw new Error(`${OPENAPI_URL} is not an OpenAPI document.`);
  return doc;
}

function titleCase(tag: string): string {
  return tag.charAt(0).toUpperCase() + tag.slice(1).replace(/[-_]/g, ' ');
}

/**
 * The operations of the API, rendered from the OpenAPI document the server
 * generates from its procedures (fetched from the same origin, so the page
 * never disagrees with the API it is served by).
 */
export function ApiReference() {
  const [state, setState] = useState<State>({ kind: 'loading' });

  const load = useCallback(() => {
    setState({ kind: 'loading' });
    loadDocument()
      .then((doc) => setState({ kind: 'ready', doc, groups: groupOperations(doc), baseUrl: apiBaseUrl(doc, window.location.origin) }))
      .catch((error: unknown) => setState({ kind: 'failed', message: error instanceof Error ? error.message : String(error) }));
  }, []);

  useEffect(load, [load]);

  // The operations appear after the page has loaded; honour a #op-… fragment once they exist.
  useEffect(() => {
    if (state.kind !== 'ready' || !window.location.hash) return;
    const target = document.getElementById(decodeURIComponent(window.location.hash.slice(1)));
    if (target) target.scrollIntoView();
  }, [state.kind]);

  if (state.kind === 'loading') {
    return (
      <p role="status" className="muted">
        Loading the API reference from <code>{OPENAPI_URL}</code>…
      </p>
    );
  }
  if (state.kind === 'failed') {
    return (
      <div role="alert" className="callout">
        <p>
          The API reference could not be loaded: {state.message} The raw document is at <a href={OPENAPI_URL}>{OPENAPI_URL}</a>.
        </p>
        <button type="button" onClick={load}>
          Try again
        </button>
      </div>
    );
  }

  const { doc, groups, baseUrl } = state;
  return (
    <div data-testid="api-reference">
      <p>
        {doc.info.title} version {doc.info.version}. Base URL: <code>{baseUrl}</code>. The examples expect your key in{' '}
        <code>$API_KEY</code> and path parameters such as <code>$NETWORK_ID</code> in shell variables.
      </p>
      <nav aria-label="Operations" className="operation-index">
        <ul>
          {groups.map((group) => (
            <li key={group.tag}>
              <a href={`#${group.anchor}`}>{titleCase(group.tag)}</a>
              <ul>
                {group.operations.map((entry) => (
                  <li key={entry.anchor}>
                    <a href={`#${entry.anchor}`}>
                      <span className={`method method-${entry.method}`}>{entry.method.toUpperCase()}</span>{' '}
                      <Code>{entry.path}</Code>
                    </a>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      </nav>
      {groups.map((group) => (
        <section key={group.tag} className="tag" aria-labelledby={group.anchor}>
          <h3 id={group.anchor}>{titleCase(group.tag)}</h3>
          <Paragraphs text={group.description} />
          {group.operations.map((entry) => (
            <OperationView key={entry.anchor} doc={doc} entry={entry} baseUrl={baseUrl} />
          ))}
        </section>
      ))}
    </div>
  );
}
