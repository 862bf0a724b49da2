'use client';

import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useEffect, useRef } from 'react';

/**
 * List filters kept in the URL (`?status=active&advertiser=…`), so a filtered list survives a
 * reload and can be shared. Each change builds on the latest URL this page asked for, not only
 * on the one it last rendered: two quick changes (a status, then an advertiser) made before the
 * router had re-rendered used to keep only the second.
 */
export function useUrlFilters() {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const current = searchParams.toString();
  /** The query last asked for, until the URL shows it. */
  const requested = useRef<string | null>(null);
  useEffect(() => {
    if (requested.current === current) requested.current = null;
  }, [current]);

  function go(query: string) {
    requested.current = query;
    router.replace(query ? `${pathname}?${query}` : pathname);
  }

  return {
    searchParams,
    setFilter(name: string, value: string) {
      const next = new URLSearchParams(requested.current ?? current);
      if (value) next.set(name, value);
      else next.delete(name);
      go(next.toString());
    },
    clearFilters() {
      go('');
    },
  };
}

/**
 * Each filter of a list: the values it may take (an API enum's `.options`), `'id'` for any id or
 * text, or `'date'` for a calendar day (YYYY-MM-DD, the reader's own day: see `dayRange`).
 */
export type FilterSpec = Record<string, readonly string[] | 'id' | 'date'>;
export type FilterValues<S extends FilterSpec> = { [K in keyof S]?: S[K] extends readonly (infer V)[] ? V : string };

/**
 * The filters of a list page, read from the URL and checked against what the API accepts (a
 * status the enum does not know is no filter):
 *   const filters = useListFilters({ status: offerStatusSchema.options, campaign: 'id' });
 *   filters.values.status  // 'open' | 'accepted' | … | undefined
 */
export function useListFilters<S extends FilterSpec>(spec: S) {
  const { searchParams, setFilter, clearFilters } = useUrlFilters();
  const values: Record<string, string> = {};
  for (const [name, allowed] of Object.entries(spec)) {
    const value = searchParams.get(name);
    if (value && accepts(allowed, value)) values[name] = value;
  }
  return {
    values: values as FilterValues<S>,
    active: Object.keys(values).length > 0,
    set: (name: keyof S & string, value: string) => setFilter(name, value),
    clear: clearFilters,
  };
}

export type ListFilters<S extends FilterSpec = FilterSpec> = ReturnType<typeof useListFilters<S>>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function accepts(allowed: FilterSpec[string], value: string): boolean {
  if (allowed === 'id') return true;
  if (allowed === 'date') return DAY.test(value) && !Number.isNaN(new Date(`${value}T00:00:00`).getTime());
  return allowed.includes(value);
}

/**
 * A range of the reader's calendar days as the API's inclusive `since`/`until` instants: from the
 * first moment of `from` to the last of `to`, in the browser's time zone (the one the console
 * shows times in). Either end may be open.
 */
export function dayRange(from: string | undefined, to: string | undefined): { since?: string; until?: string } {
  const range: { since?: string; until?: string } = {};
  if (from) range.since = new Date(`${from}T00:00:00`).toISOString();
  if (to) range.until = new Date(`${to}T23:59:59.999`).toISOString();
  return range;
}
