import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { CodeBlock } from '@/app/docs/code-block';
import { ERROR_TYPES, errorType, RETRY_LABEL } from '@/app/docs/error-catalog';
import { Code, InlineText } from '@/app/docs/inline-text';
import { ReferenceLinks } from '@/app/docs/reference-links';

type Props = { params: Promise<{ slug: string }> };

/** One page per error type, so the `type` URL of every error body opens an explanation. */
export function generateStaticParams() {
  return ERROR_TYPES.map((e) => ({ slug: e.slug }));
}

export const dynamicParams = false;

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const error = errorType((await params).slug);
  return { title: error ? `${error.status} ${error.title} (${error.slug}) — Ad Network Service API` : 'Unknown error type' };
}

export default async function ErrorTypePage({ params }: Props) {
  const error = errorType((await params).slug);
  if (!error) notFound();

  const example = JSON.stringify(
    {
      type: `$BASE_URL/docs/errors/${error.slug}`,
      title: error.title,
      status: error.status,
      detail: '…what went wrong with this request…',
    },
    null,
    2,
  );

  return (
    <main id="main" tabIndex={-1} className="docs-main error-page">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <ol>
          <ReferenceLinks />
          <li aria-current="page">
            <code>{error.slug}</code>
          </li>
        </ol>
      </nav>
      <h1>
        <span className="status status-error">{error.status}</span> {error.title}
      </h1>
      <p className="lead">
        <InlineText text={error.summary} />
      </p>
      <dl className="facts">
        <dt>HTTP status</dt>
        <dd>{error.status}</dd>
        <dt>Type</dt>
        <dd>
          <Code>{`…/docs/errors/${error.slug}`}</Code>
        </dd>
        <dt>Worth retrying?</dt>
        <dd>{RETRY_LABEL[error.retry]}</dd>
      </dl>

      <h2>Common causes</h2>
      <ul>
        {error.causes.map((cause, i) => (
          <li key={i}>
            <InlineText text={cause} />
          </li>
        ))}
      </ul>

      <h2>What to do</h2>
      <p>
        <InlineText text={error.remedy} />
      </p>

      <h2>Example body</h2>
      <p>
        Served as <code>application/problem+json</code>. <code>detail</code> explains the particular request; branch on <code>status</code> or{' '}
        <code>type</code>, not on <code>detail</code>.
      </p>
      <CodeBlock code={example} label={`example ${error.slug} body`} copy={false} />

      <p>
        <a href={`/docs#error-${error.slug}`}>All error types</a>
      </p>
    </main>
  );
}
