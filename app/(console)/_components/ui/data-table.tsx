'use client';

import { flexRender, getCoreRowModel, getSortedRowModel, useReactTable, type ColumnDef, type Row, type SortingState } from '@tanstack/react-table';
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

/** The label a column's cell carries in the stacked layout: its header when that is text. */
function columnLabel<TRow>(column: DataTableColumn<TRow>): string | undefined {
  return typeof column.header === 'string' ? column.header : undefined;
}

/**
 * A readable table over TanStack Table with loading, empty and error states.
 * Below the `sm` breakpoint (640 px) each row is a card: the cells stack, each under its
 * column's name, so nothing scrolls sideways; from `sm` up it is an ordinary table that scrolls
 * inside its card only if its columns cannot fit. One DOM serves both (the table keeps its
 * semantics, the header row is read by screen readers and hidden on narrow screens).
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
        <table className="w-full border-collapse text-left text-sm max-sm:block" aria-label={label} aria-busy={showSkeleton || undefined}>
          <thead className="bg-slate-50 text-xs font-medium tracking-wide text-slate-600 uppercase max-sm:sr-only">
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
          <tbody className="divide-y divide-slate-100 max-sm:block">
            {showSkeleton
              ? Array.from({ length: 4 }, (_, i) => (
                  <tr key={i} className="max-sm:block max-sm:px-4 max-sm:py-2">
                    {columns.map((_, j) => (
                      <td key={j} className="px-4 py-3 max-sm:block max-sm:px-0 max-sm:py-1">
                        <Skeleton className="h-4 w-full max-w-40" />
                      </td>
                    ))}
                  </tr>
                ))
              : visibleRows.map((row: Row<TRow>) => (
                  <tr
                    key={row.id}
                    className={cn(
                      'align-top max-sm:block max-sm:space-y-2 max-sm:px-4 max-sm:py-3',
                      onRowClick &&
                        'cursor-pointer hover:bg-slate-50 focus-visible:bg-indigo-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-600',
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
                    {row.getVisibleCells().map((cell) => {
                      const name = columnLabel(cell.column.columnDef);
                      return (
                        <td
                          key={cell.id}
                          data-label={name}
                          className={cn(
                            'px-4 py-3 text-slate-800 max-sm:block max-sm:min-w-0 max-sm:p-0 max-sm:break-words max-sm:[&_*]:whitespace-normal',
                            // The column's name before the value, drawn by CSS (so it is not in the cell's text on wide screens).
                            name &&
                              'max-sm:grid max-sm:grid-cols-[6.5rem_minmax(0,1fr)] max-sm:items-baseline max-sm:gap-3 max-sm:before:text-xs max-sm:before:font-medium max-sm:before:tracking-wide max-sm:before:text-slate-600 max-sm:before:uppercase max-sm:before:content-[attr(data-label)]',
                          )}
                        >
                          <div className="min-w-0">{flexRender(cell.column.columnDef.cell, cell.getContext())}</div>
                        </td>
                      );
                    })}
                  </tr>
                ))}
          </tbody>
        </table>
      </div>
      {showSkeleton && (
        <span className="sr-only" role="status">
          Loading {label}…
        </span>
      )}
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
