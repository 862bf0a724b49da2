'use client';

import { useQuery, type QueryKey, type UseQueryResult } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { useEffect, useState, type ReactNode, type RefObject } from 'react';
import { ConsoleBrand } from '@/app/(console)/_components/shell/console-brand';
import { Button } from '@/app/(console)/_components/ui/button';
import { Card, CardContent } from '@/app/(console)/_components/ui/card';
import { cn } from '@/app/(console)/_lib/cn';
import { problemOf, problemSentence } from '@/app/(console)/_lib/problem';

/*
 * The pages a podcast host reaches from an emailed link, with no API key: the voice consent page and
 * the creative review page. The token is the credential; it travels in the fragment, which no server
 * logs, and opens one thing.
 */

/** The link's token, from the fragment; '' when there is none. */
const tokenFromLocation = () => (new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '').trim();

/** What `useLink` knows: the token (null before it is read), the query's key and state, and whether the link is not valid. */
export interface Link<T> {
  token: string | null;
  queryKey: QueryKey;
  query: UseQueryResult<T>;
  /** Malformed, or answered 404 (unknown, expired, superseded: the API never says which). */
  invalid: boolean;
}

/**
 * Read the link's token on arrival and again when another link is opened in this tab (only the
 * fragment changes), and what it opens, once (`read`; no retries: a 404 stays one). A malformed
 * token is not sent.
 */
export function useLink<T>({ name, pattern, read }: { name: string; pattern: RegExp; read: (token: string) => Promise<T> }): Link<T> {
  const [token, setToken] = useState<string | null>(null);
  useEffect(() => {
    const readToken = () => setToken(tokenFromLocation());
    readToken();
    window.addEventListener('hashchange', readToken);
    return () => window.removeEventListener('hashchange', readToken);
  }, []);

  const wellFormed = token !== null && pattern.test(token);
  const queryKey = [name, token];
  const query = useQuery({ queryKey, queryFn: () => read(token!), enabled: wellFormed, retry: false, staleTime: Infinity });
  const invalid = token !== null && (!wellFormed || (query.error !== null && problemOf(query.error).status === 404));
  return { token, queryKey, query, invalid };
}

/**
 * The frame of a link page: the brand, a card headed by `title` (focusable, so a decision can move
 * the focus back to it), then by the link's state — not valid (`notValid` says what to do), an
 * error with Try again (`reading` names what failed), reading, or `children` with what it opened.
 */
export function LinkPage<T>({
  link,
  title,
  notValid,
  reading,
  heading,
  wide = false,
  children,
}: {
  link: Link<T>;
  /** The heading once the link is read (`view`), or before. */
  title: (view: T | undefined) => string;
  notValid: string;
  /** What failed to load, for "Could not …" (`problemSentence`). */
  reading: string;
  heading: RefObject<HTMLHeadingElement | null>;
  /** The review page's width (audio, script and versions side by side), not the consent page's. */
  wide?: boolean;
  children: (view: T) => ReactNode;
}) {
  const { query, invalid } = link;
  const view = query.data;
  return (
    <div className={cn('w-full', wide ? 'max-w-2xl' : 'max-w-lg')}>
      <ConsoleBrand />
      <Card>
        <CardContent className={cn('px-5 py-6', wide ? 'sm:px-8' : 'sm:px-6')}>
          <h1 ref={heading} tabIndex={-1} className="text-xl font-semibold text-slate-900 focus:outline-none">
            {invalid ? 'This link is not valid' : title(view)}
          </h1>
          {invalid ? (
            <p role="alert" className="mt-3 text-sm text-slate-700">
              {notValid}
            </p>
          ) : query.error ? (
            <div role="alert" className="mt-3 space-y-3 text-sm text-red-800">
              <p className="rounded-md bg-red-50 px-3 py-2">{problemSentence(query.error, reading)}</p>
              <Button variant="secondary" onClick={() => void query.refetch()}>
                Try again
              </Button>
            </div>
          ) : view === undefined ? (
            <p role="status" className="mt-3 flex items-center gap-2 text-sm text-slate-600">
              <Loader2 className="size-4 animate-spin" aria-hidden /> Reading your link.
            </p>
          ) : (
            children(view)
          )}
        </CardContent>
      </Card>
    </div>
  );
}
