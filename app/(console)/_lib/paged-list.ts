import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';

interface PageOf<T> {
  items: T[];
  next_cursor: string | null;
}

/** Infinite-query options of every cursor-paged list: the next page starts at the last page's `next_cursor`. */
export const byCursor = { getNextPageParam: (last: { next_cursor: string | null }) => last.next_cursor ?? undefined };

/**
 * A list procedure's infinite query, flattened for a table with "Load more":
 *   const list = pagedList(useInfiniteQuery(trpc.advertisers.list.infiniteQueryOptions({ networkId, limit: 50 }, byCursor)));
 *   <DataTable rows={list.rows} hasMore={list.hasMore} onLoadMore={list.loadMore} … />
 */
export function pagedList<TItem>(query: UseInfiniteQueryResult<InfiniteData<PageOf<TItem>, unknown>, unknown>) {
  return {
    rows: query.data?.pages.flatMap((page) => page.items),
    error: query.error,
    refetch: () => void query.refetch(),
    hasMore: query.hasNextPage,
    loadMore: () => void query.fetchNextPage(),
    loadingMore: query.isFetchingNextPage,
  };
}

export type PagedList<TItem> = ReturnType<typeof pagedList<TItem>>;

/** A paged list as DataTable's props: `<DataTable {...pagedTable(list)} columns={…} label="…" />`. */
export function pagedTable<TItem>(list: PagedList<TItem>) {
  return {
    rows: list.rows,
    error: list.error,
    onRetry: list.refetch,
    hasMore: list.hasMore,
    onLoadMore: list.loadMore,
    loadingMore: list.loadingMore,
  };
}
