'use client';

import { usePathname, useRouter, useSearchParams } from 'next/navigation';

/**
 * The object open on a list page, kept in the URL (`/offers?offer=off_…`): a link to it opens it,
 * it survives a reload, and opening and closing are history entries, so back and forward move
 * between them. The list's filters stay as they are.
 *   const offer = useOpenObject('offer');
 *   <DataTable onRowClick={(o) => offer.open(o.id)} selectedRowId={offer.id ?? undefined} … />
 *   <OfferSheet offerId={offer.id} onClose={offer.close} />
 */
export function useOpenObject(param: string) {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const id = searchParams.get(param);

  function go(value: string | null) {
    const next = new URLSearchParams(searchParams.toString());
    if (value) next.set(param, value);
    else next.delete(param);
    const query = next.toString();
    router.push(query ? `${pathname}?${query}` : pathname, { scroll: false });
  }

  return {
    id,
    /** The URL that opens `objectId` here, for links and "Copy link". */
    href: (objectId: string) => {
      const next = new URLSearchParams(searchParams.toString());
      next.set(param, objectId);
      return `${pathname}?${next.toString()}`;
    },
    open: (objectId: string) => go(objectId),
    close: () => go(null),
  };
}

export type OpenObject = ReturnType<typeof useOpenObject>;
