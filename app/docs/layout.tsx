import type { ReactNode } from 'react';
import { ReferenceLinks } from './reference-links';
import './docs.css';

/** Frame of the documentation pages: skip link, header, footer. No external fonts or scripts. */
export default function DocsLayout({ children }: { children: ReactNode }) {
  return (
    <div className="docs">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="site-header">
        <a href="/" className="site-name">
          Ad Network Service
        </a>
        <nav aria-label="Site">
          <ul>
            <ReferenceLinks />
            <li>
              <a href="/v1/openapi.json">OpenAPI document</a>
            </li>
          </ul>
        </nav>
      </header>
      {children}
      <footer className="site-footer">
        <p>
          The machine-readable description of this API is its OpenAPI 3.1 document, <a href="/v1/openapi.json">/v1/openapi.json</a>.
        </p>
      </footer>
    </div>
  );
}
