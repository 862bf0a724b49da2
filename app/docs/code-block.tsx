import { CopyButton } from './copy-button';

/** A preformatted example with a copy button. */
export function CodeBlock({ code, label, copy = true }: { code: string; label: string; copy?: boolean }) {
  return (
    <div className="code-block">
      {copy ? (
        <div className="code-actions">
          <CopyButton text={code} label={label} />
        </div>
      ) : null}
      <pre className="code">
        <code>{code}</code>
      </pre>
    </div>
  );
}
