'use client';

import {
  flexRender,
  getCoreRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type Row,
  type SortingState,
} from '@tanstack/react-table';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { useState, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from '@/app/(console)/_lib/cn';
import { Button } from './button';
import { Skeleton } from './skeleton';
import { EmptyState, ErrorState } from './states';

export type { ColumnDef } from '@tanstack/react-table';

/**
 * A column of any value type. TanStack's column helpers produce
 * ColumnDef<Row, string>, ColumnDef<Row, number>, … and a list of them only
 * fits a shared `any` value type (as TanStack's own docs do).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type DataTableColumn<TRow> = ColumnDef<TRow, any>;

export interface DataTableProps<TRow> {
  /** TanStack Table columns. Set `enableSorting: false` on columns that should not sort (sorting is client-side, over the loaded rows). */
  columns: DataTableColumn<TRow>[];
  /** Rows to show; `undefined` while loading. */
  rows: TRow[] | undefined;
  /** Accessible name of the table, e.g. "API keys". */
  label: string;
  loading?: boolean;
  /** When set, the table shows ErrorState with a retry. */
  error?: unknown;
  onRetry?: () => void;
  /** Shown when `rows` is empty. */
  empty?: ReactNode;
  /** Stable row id (defaults to `row.id` when present). */
  getRowId?: (row: TRow, index: number) => string;
  /** Makes rows clickable (also Enter/Space when focused), e.g. to open a detail panel. */
  onRowClick?: (row: TRow) => void;
  /** Highlights the row whose id matches. */
  selectedRowId?: string;
  /** Cursor pagination: shows a "Load more" button when true. */
  hasMore?: boolean;
  onLoadMore?: () => void;
  loadingMore?: boolean;
  className?: string;
}

function defaultRowId<TRow>(row: TRow, index: number): string {
  const id = (row as { id?: unknown }).id;
  return typeof id === 'string' ? id : String(index);
}

/**
 * A readable table over TanStack Table with loading, empty and error states.
 * Scrolls horizontally on narrow screens instead of squeezing columns.
 */
export function DataTable<TRow>({
  columns,
  rows,
  label,
  loading,
  error,
  onRetry,
  empty,
  getRowId = defaultRowId,
  onRowClick,
  selectedRowId,
  hasMore,
  onLoadMore,
  loadingMore,
  className,
}: DataTableProps<TRow>) {
  const [sorting, setSorting] = useState<SortingState>([]);
  const table = useReactTable({
    data: rows ?? [],
    columns,
    state: { sorting },
    onSortingChange: setSorting,
    getRowId,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
  });

  if (error) return <ErrorState error={error} onRetry={onRetry} className={className} />;

  const showSkeleton = loading || rows === undefined;
  const visibleRows = table.getRowModel().rows;

  return (
    <div className={cn('overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm', className)}>
      <div className="relative overflow-x-auto">
        <table className="w-full border-collapse text-left text-sm" aria-label={label} aria-busy={showSkeleton || undefined}>
          <thead className="bg-slate-50 text-xs font-medium tracking-wide text-slate-600 uppercase">
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const sortable = header.column.getCanSort() && !header.isPlaceholder;
                  const sorted = header.column.getIsSorted();
                  return (
                    <th
                      key={header.id}
                      scope="col"
                      className="border-b border-slate-200 px-4 py-2.5 whitespace-nowrap"
                      aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                    >
                      {header.isPlaceholder ? null : sortable ? (
                        <button
                          type="button"
                          onClick={header.column.getToggleSortingHandler()}
                          className="-mx-1 inline-flex items-center gap-1 rounded px-1 uppercase hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
                        >
                          {flexRender(header.column.columnDef.header, header.getContext())}
                          {sorted === 'asc' ? (
                            <ArrowUp className="size-3.5" aria-hidden />
                          ) : sorted === 'desc' ? (
                            <ArrowDown className="size-3.5" aria-hidden />
                          ) : (
                            <ArrowUpDown className="size-3.5 opacity-40" aria-hidden />
                          )}
                        </button>
                      ) : (
                        flexRender(header.column.columnDef.header, header.getContext())
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody className="divide-y divide-slate-100">
            {showSkeleton
              ? Array.from({ length: 4 }, (_, i) => (
                  <tr key={i}>
                    {columns.map((_, j) => (
                      <td key={j} className="px-4 py-3">
                        <Skeleton className="h-4 w-full max-w-40" />
                      </td>
                    ))}
                  </tr>
                ))
              : visibleRows.map((row: Row<TRow>) => (
                  <tr
                    key={row.id}
                    className={cn(
                      'align-top',
                      onRowClick && 'cursor-pointer hover:bg-slate-50 focus-visible:bg-indigo-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-600',
                      selectedRowId === row.id && 'bg-indigo-50',
                    )}
                    {...(onRowClick
                      ? {
                          tabIndex: 0,
                          onClick: () => onRowClick(row.original),
                          onKeyDown: (event: KeyboardEvent) => {
                            if (event.target !== event.currentTarget) return;
                            if (event.key === 'Enter' || event.key === ' ') {
                              event.preventDefault();
                              onRowClick(row.original);
                            }
                          },
                          'aria-selected': selectedRowId === row.id,
                        }
                      : {})}
                  >
                    {row.getVisibleCells().map((cell) => (
                      <td key={cell.id} className="px-4 py-3 text-slate-800">
                        {flexRender(cell.column.columnDef.cell, cell.getContext())}
                      </td>
                    ))}
                  </tr>
                ))}
          </tbody>
        </table>
      </div>
      {showSkeleton && <span className="sr-only" role="status">Loading {label}…</span>}
      {!showSkeleton && visibleRows.length === 0 && (empty ?? <EmptyState title={`No ${label.toLowerCase()} yet`} />)}
      {!showSkeleton && hasMore && onLoadMore && (
        <div className="flex justify-center border-t border-slate-100 p-3">
          <Button variant="secondary" size="sm" onClick={onLoadMore} loading={loadingMore}>
            Load more
          </Button>
        </div>
      )}
    </div>
  );
}
