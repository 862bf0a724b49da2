import { Fragment } from 'react';

/**
 * Code that may wrap before `/` and after `.`, `_` and `-` (via <wbr>, which copies as
 * nothing), so long paths and field names fit narrow screens without breaking
 * inside a word.
 */
export function Code({ children, className }: { children: string; className?: string }) {
  const parts = children.split(/(?<=.)(?=\/)|(?<=[._-])(?=.)/);
  return (
    <code className={className}>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </code>
  );
}

/** Text with `backtick` spans rendered as <code>, as in the OpenAPI descriptions and the error catalog. */
export function InlineText({ text }: { text: string }) {
  const parts = text.split(/(`[^`]+`)/g);
  return (
    <>
      {parts.map((part, i) =>
        part.startsWith('`') && part.endsWith('`') && part.length > 1 ? (
          <Code key={i}>{part.slice(1, -1)}</Code>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </>
  );
}
