'use client';

import '@scalar/api-reference-react/style.css';
import dynamic from 'next/dynamic';
import { useEffect, useRef, useState } from 'react';

export const OPENAPI_URL = '/v1/openapi.json';

// Scalar renders in the browser only (a Vue app behind a React wrapper).
const ApiReferenceReact = dynamic(() => import('@scalar/api-reference-react').then((m) => m.ApiReferenceReact), {
  ssr: false,
  loading: () => (
    <p role="status" className="muted">
      Loading the API reference from <code>{OPENAPI_URL}</code>…
    </p>
  ),
});

/** Scalar's search box, once its search is open. */
const searchIsOpen = () => document.querySelector('[role="combobox"][aria-label="Enter search query"]') !== null;

/**
 * Scalar opens its search on Ctrl K (⌘ K on a Mac); the button does the same for people who do not
 * know it. The shortcut toggles, so it is sent once, when the reference has mounted (it may still be
 * loading when the button is pressed).
 */
function openSearch(attempt = 0) {
  const toggle = () => searchIsOpen() || window.dispatchEvent(new KeyboardEvent('keydown', { key: 'k', ctrlKey: true, metaKey: true }));
  if (document.querySelector('.api-reference .scalar-app')) {
    if (attempt === 0) toggle();
    else window.setTimeout(toggle, 300); // just mounted: let its shortcut listener attach
  } else if (attempt < 100) {
    window.setTimeout(() => openSearch(attempt + 1), 100);
  }
}

/** A link into the reference itself (#tag/…, #model/…, #description/…): Scalar must mount at once to follow it. */
const linksIntoReference = () => /^#(tag|model|description|webhook)\//.test(window.location.hash);

/**
 * The operations of the API, rendered by Scalar (@scalar/api-reference-react)
 * from the OpenAPI document the server generates from its procedures, fetched
 * from the same origin, so the page never disagrees with the API it is served by.
 * Deep links: /docs#tag/<tag>/<operationId>, e.g. #tag/networks/networks-create.
 */
export function ApiReference() {
  // The reference is a large app (~1 MB of script): it mounts when the reader comes near it, follows
  // a link into it, or searches — so the guides above are readable at once.
  const [wanted, setWanted] = useState(false);
  const anchor = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (linksIntoReference()) return setWanted(true);
    const observer = new IntersectionObserver(([entry]) => entry?.isIntersecting && setWanted(true), { rootMargin: '800px 0px' });
    if (anchor.current) observer.observe(anchor.current);
    const onHash = () => linksIntoReference() && setWanted(true);
    // Ctrl K before the reference has mounted: mount it and open its search.
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key === 'k' && !searchIsOpen()) {
        setWanted(true);
        openSearch();
      }
    };
    window.addEventListener('hashchange', onHash);
    window.addEventListener('keydown', onKey);
    return () => {
      observer.disconnect();
      window.removeEventListener('hashchange', onHash);
      window.removeEventListener('keydown', onKey);
    };
  }, []);

  return (
    <div data-testid="api-reference" ref={anchor}>
      <p>
        <button
          type="button"
          onClick={() => {
            setWanted(true);
            openSearch();
          }}
        >
          Search operations and models
        </button>{' '}
        <span className="muted">or press Ctrl K (⌘ K on a Mac).</span>
      </p>
      <div className="api-reference">
        {wanted ? (
          <ApiReferenceReact
            configuration={{
              url: OPENAPI_URL,
              // One column of operations inside this page: the guides above are its navigation.
              layout: 'modern',
              showSidebar: false,
              // Every tag open, as the reference it replaced: each operation is on the page (rendered as it scrolls near).
              defaultOpenAllTags: true,
              // Nothing from other origins: system fonts, no hosted agent, proxy or telemetry.
              withDefaultFonts: false,
              telemetry: false,
              agent: { disabled: true },
              hideClientButton: true,
              hideTestRequestButton: true,
              showDeveloperTools: 'never',
              documentDownloadType: 'none',
              hideDarkModeToggle: true,
              forceDarkModeState: 'light',
              defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
              // Operation anchors are the operationIds: #tag/networks/networks-create.
              generateOperationSlug: (operation) => operation.operationId ?? `${operation.method}-${operation.path}`,
            }}
          />
        ) : (
          <p className="muted">The operations load as you scroll to them.</p>
        )}
      </div>
    </div>
  );
}
