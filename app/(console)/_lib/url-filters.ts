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
