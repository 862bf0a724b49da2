'use client';

import { flexRender, getCoreRowModel, getSortedRowModel, useReactTable, type ColumnDef, type Row, type SortingState } from '@tanstack/react-table';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { cn } from '@/app/(console)/_lib/cn';
import { Button } from './button';
import { Checkbox } from './checkbox';
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
  /** Row selection with a bar of bulk actions (below): a checkbox column first, and the bar while any row is selected. */
  selection?: RowSelection<TRow>;
  className?: string;
}

/**
 * What a table's rows may be selected for. Only the rows an action applies to get a checkbox (the
 * same test the row's own buttons use). The selection is kept across "Load more" and polling (by
 * row id), counts only rows still loaded and selectable, and is cleared when `resetKey` changes.
 */
export interface RowSelection<TRow> {
  /** Whether a bulk action applies to this row, e.g. an open offer. */
  canSelect: (row: TRow) => boolean;
  /** The row's name: its checkbox is "Select <name>". */
  nameOf: (row: TRow) => string;
  /** The bar's actions over the selected rows (in the table's order); `clear` empties the selection. */
  actions: (rows: TRow[], clear: () => void) => ReactNode;
  /** The selection is cleared whenever this changes: the list's filters. */
  resetKey?: string;
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
 * A click on the row itself, not on one of its buttons or links (they do their own thing) nor in
 * a dialog one of them opened (React passes a portal's events up to the row).
 */
function opensRow(event: MouseEvent<HTMLElement>): boolean {
  const target = event.target as Element;
  if (!event.currentTarget.contains(target)) return false;
  const control = target.closest('a, button, input, select, textarea, label, audio, [role="button"]');
  return control === null || !event.currentTarget.contains(control);
}

/**
 * The rows of a table still loading: one array for every render. TanStack Table resets its page
 * index (a state update) whenever `data` is another array, so a new `[]` per render would render
 * the table again and again for as long as it loads; in a Back press (a popstate, which React
 * renders synchronously) without ever yielding, and the tab would hang.
 */
const NO_ROWS: never[] = [];

/** The id `actionsColumn` gives the column of a row's buttons (list-page.tsx). */
export const ACTIONS_COLUMN_ID = 'actions';

/** The id of the checkbox column a `selection` adds first. */
export const SELECT_COLUMN_ID = 'select';

/** A checked row's tint, opaque so that under the pinned actions nothing shows through. */
const CHECKED_ROW = 'bg-[color-mix(in_oklab,var(--color-indigo-50)_60%,white)]';

/**
 * Whether the table is wider than its box and not scrolled to its right end: the actions column
 * then casts a shadow over the columns sliding under it, or (without one) the right edge fades,
 * so the reader sees there is more.
 */
function useMoreToTheRight() {
  const ref = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState(false);
  const measure = useCallback(() => {
    const box = ref.current;
    if (box) setMore(box.scrollWidth - box.clientWidth - box.scrollLeft > 1);
  }, []);
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    if (box.firstElementChild) observer.observe(box.firstElementChild);
    return () => observer.disconnect();
  }, [measure]);
  return { ref, more, onScroll: measure };
}

/**
 * A readable table over TanStack Table with loading, empty and error states, laid out by the
 * width of its own box (a container query), not the window's, since the sidebar takes a share:
 * - in a box narrower than 48rem (a phone, or a 1024 px window beside the sidebar) each row is a
 *   card: the cells stack, each under its column's name, the row's buttons last;
 * - wider, it is an ordinary table. If its columns still cannot fit, it scrolls inside its box
 *   while the actions column stays pinned to the right edge with a shadow, so every row's
 *   buttons are on screen at every width.
 * One DOM serves both (the table keeps its semantics; the header row is read by screen readers
 * and hidden in the cards).
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
  selection,
  className,
}: DataTableProps<TRow>) {
  const [sorting, setSorting] = useState<SortingState>([]);
  const scroll = useMoreToTheRight();
  const [picked, setPicked] = useState<ReadonlySet<string>>(() => new Set());
  const [pickedFor, setPickedFor] = useState(selection?.resetKey);
  if (pickedFor !== selection?.resetKey) {
    // Reset while rendering when the filters change (React's pattern for state that follows a prop).
    setPickedFor(selection?.resetKey);
    setPicked(new Set());
  }
  const loaded = rows ?? NO_ROWS;
  const selectableIds = selection ? loaded.flatMap((row, i) => (selection.canSelect(row) ? [getRowId(row, i)] : [])) : [];
  const selectedIds = selectableIds.filter((id) => picked.has(id));
  const selectedSet = new Set(selectedIds);
  const allSelected = selectableIds.length > 0 && selectedIds.length === selectableIds.length;
  const toggle = (id: string, on: boolean) =>
    setPicked((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const clear = () => setPicked(new Set());
  const withSelection = selection !== undefined && selectableIds.length > 0;
  const selectColumn: DataTableColumn<TRow> | undefined = withSelection
    ? {
        id: SELECT_COLUMN_ID,
        enableSorting: false,
        header: () => (
          <label className="-m-2 inline-flex cursor-pointer items-center gap-2 p-2 normal-case">
            <Checkbox
              className="size-5"
              aria-label="Select all loaded rows"
              checked={allSelected ? true : selectedIds.length > 0 ? 'indeterminate' : false}
              onCheckedChange={(checked) => setPicked(checked === true ? new Set(selectableIds) : new Set())}
            />
            {/* Cards have no header row: the control says what it does. */}
            <span aria-hidden className="hidden text-sm font-medium tracking-normal text-slate-700 @max-3xl:inline">
              Select all
            </span>
          </label>
        ),
        cell: ({ row }) =>
          selection.canSelect(row.original) ? (
            <label className="-m-2 inline-flex cursor-pointer p-2">
              <Checkbox
                className="size-5"
                aria-label={`Select ${selection.nameOf(row.original)}`}
                checked={picked.has(row.id)}
                onCheckedChange={(checked) => toggle(row.id, checked === true)}
              />
            </label>
          ) : null,
      }
    : undefined;
  const table = useReactTable({
    data: loaded,
    columns: selectColumn ? [selectColumn, ...columns] : columns,
    state: { sorting },
    onSortingChange: setSorting,
    getRowId,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
  });

  if (error) return <ErrorState error={error} onRetry={onRetry} className={className} />;

  const showSkeleton = loading || rows === undefined;
  const visibleRows = table.getRowModel().rows;
  const tableColumns = table.getAllLeafColumns();
  const checked = (id: string) => selectedSet.has(id);
  const pinsActions = columns.some((column) => column.id === ACTIONS_COLUMN_ID);
  /** The pinned actions cell: on the right edge while the table scrolls, in place in the cards. */
  const pinned = (background: string) =>
    cn(
      'sticky right-0 @max-3xl:static @max-3xl:bg-transparent',
      background,
      // Black in the dark theme: a slate shadow does not show on a dark surface.
      scroll.more && 'shadow-[-10px_0_10px_-8px_rgb(15_23_42/0.25)] @max-3xl:shadow-none dark:shadow-[-10px_0_10px_-8px_rgb(0_0_0/0.6)]',
    );

  return (
    <div className={cn('@container relative overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm', className)}>
      {selection && (
        // Announces the count as it changes; the bar below is visual and appears with the first selection.
        <span className="sr-only" role="status">
          {selectedIds.length > 0 ? `${selectedIds.length} selected` : ''}
        </span>
      )}
      {selection && selectedIds.length > 0 && (
        <div
          role="region"
          aria-label={`Selected ${label}`}
          className="flex flex-wrap items-center gap-x-3 gap-y-2 border-b border-indigo-200 bg-indigo-50 px-4 py-2.5 text-sm"
        >
          <span className="font-medium text-indigo-950 tabular-nums">{selectedIds.length} selected</span>
          <div className="flex flex-wrap items-center gap-2">
            {selection.actions(
              visibleRows.filter((row) => selectedSet.has(row.id)).map((row) => row.original),
              clear,
            )}
          </div>
          <Button variant="ghost" size="sm" className="ml-auto" onClick={clear}>
            Clear
          </Button>
        </div>
      )}
      <div ref={scroll.ref} onScroll={scroll.onScroll} className="overflow-x-auto">
        <table className="w-full border-collapse text-left text-sm @max-3xl:block" aria-label={label} aria-busy={showSkeleton || undefined}>
          <thead
            className={cn(
              'bg-slate-50 text-xs font-medium tracking-wide text-slate-600 uppercase',
              // In cards the header row is for screen readers, but for "Select all", which stays on screen.
              withSelection ? '@max-3xl:block' : '@max-3xl:sr-only',
            )}
          >
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id} className={cn(withSelection && '@max-3xl:block')}>
                {group.headers.map((header) => {
                  const sortable = header.column.getCanSort() && !header.isPlaceholder;
                  const sorted = header.column.getIsSorted();
                  return (
                    <th
                      key={header.id}
                      scope="col"
                      className={cn(
                        'border-b border-slate-200 px-4 py-2.5 whitespace-nowrap',
                        header.column.id === ACTIONS_COLUMN_ID && pinned('bg-slate-50'),
                        header.column.id === SELECT_COLUMN_ID ? 'w-0 pr-0 @max-3xl:block @max-3xl:w-auto' : withSelection && '@max-3xl:sr-only',
                      )}
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
          <tbody className="divide-y divide-slate-100 @max-3xl:block">
            {showSkeleton
              ? Array.from({ length: 4 }, (_, i) => (
                  <tr key={i} className="@max-3xl:block @max-3xl:px-4 @max-3xl:py-2">
                    {tableColumns.map((_, j) => (
                      <td key={j} className="px-4 py-3 @max-3xl:block @max-3xl:px-0 @max-3xl:py-1">
                        <Skeleton className="h-4 w-full max-w-40" />
                      </td>
                    ))}
                  </tr>
                ))
              : visibleRows.map((row: Row<TRow>) => (
                  <tr
                    key={row.id}
                    className={cn(
                      'group align-top @max-3xl:block @max-3xl:space-y-2 @max-3xl:px-4 @max-3xl:py-3',
                      // A gutter on the card's left for its checkbox.
                      withSelection && '@max-3xl:relative @max-3xl:pl-12',
                      onRowClick &&
                        'cursor-pointer hover:bg-slate-50 focus-visible:bg-indigo-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-600',
                      checked(row.id) && CHECKED_ROW,
                      selectedRowId === row.id && 'bg-indigo-50',
                    )}
                    {...(onRowClick
                      ? {
                          tabIndex: 0,
                          onClick: (event: MouseEvent<HTMLTableRowElement>) => {
                            if (!opensRow(event)) return;
                            onRowClick(row.original);
                          },
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
                      const actions = cell.column.id === ACTIONS_COLUMN_ID;
                      const select = cell.column.id === SELECT_COLUMN_ID;
                      return (
                        <td
                          key={cell.id}
                          data-label={name}
                          data-actions={actions || undefined}
                          className={cn(
                            'px-4 py-3 text-slate-800 @max-3xl:block @max-3xl:min-w-0 @max-3xl:p-0 @max-3xl:break-words @max-3xl:[&_*]:whitespace-normal',
                            select && 'w-0 pr-0 @max-3xl:absolute @max-3xl:top-3 @max-3xl:left-4 @max-3xl:w-auto',
                            // The column's name before the value, drawn by CSS (so it is not in the cell's text on wide screens).
                            name &&
                              '@max-3xl:grid @max-3xl:grid-cols-[6.5rem_minmax(0,1fr)] @max-3xl:items-baseline @max-3xl:gap-3 @max-3xl:before:text-xs @max-3xl:before:font-medium @max-3xl:before:tracking-wide @max-3xl:before:text-slate-600 @max-3xl:before:uppercase @max-3xl:before:content-[attr(data-label)]',
                            // The row's own colour under the pinned cell, so the columns sliding beneath do not show through.
                            actions &&
                              pinned(
                                selectedRowId === row.id
                                  ? 'bg-indigo-50'
                                  : checked(row.id)
                                    ? CHECKED_ROW
                                    : cn('bg-white', onRowClick && 'group-hover:bg-slate-50 group-focus-visible:bg-indigo-50'),
                              ),
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
      {!pinsActions && scroll.more && (
        <div aria-hidden className="pointer-events-none absolute inset-y-0 right-0 w-10 bg-gradient-to-l from-white @max-3xl:hidden" />
      )}
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
