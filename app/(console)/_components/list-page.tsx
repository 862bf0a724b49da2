'use client';

import { Plus } from 'lucide-react';
import { IntentLink } from '@/app/(console)/_components/ui/intent-link';
import { useId, useState, type ReactNode } from 'react';
import { Button } from '@/app/(console)/_components/ui/button';
import { ExportCsvButton } from '@/app/(console)/_components/export-csv-button';
import { DataTable, type DataTableColumn, type RowSelection, ACTIONS_COLUMN_ID } from '@/app/(console)/_components/ui/data-table';
import { Input } from '@/app/(console)/_components/ui/input';
import { Label } from '@/app/(console)/_components/ui/label';
import { Select, type SelectOption } from '@/app/(console)/_components/ui/select';
import { EmptyState, PageHeader } from '@/app/(console)/_components/ui/states';
import { formatMoney } from '@/app/(console)/_lib/ads';
import { DateTime } from '@/app/(console)/_components/ui/date-time';
import { cn } from '@/app/(console)/_lib/cn';
import { pagedTable, type PagedList } from '@/app/(console)/_lib/paged-list';
import type { FilterSpec, ListFilters } from '@/app/(console)/_lib/url-filters';

/*
 * The list pages of the console (advertisers, campaigns, podcasts, offers, creatives) are one
 * block: a header with the create action, a toolbar of filters kept in the URL, a table that
 * loads more by cursor, and empty states that tell "nothing yet" (with the create action) from
 * "nothing matches these filters". A page brings its columns, filters and dialogs.
 */

export interface ListPageProps<TRow, S extends FilterSpec> {
  /** The page's heading and the table's accessible name, e.g. "Offers". */
  title: string;
  /** What the rows are, in "No … match these filters", when the title does not say it ("audit log entries"). */
  rowsName?: string;
  description: ReactNode;
  /** The list's `/v1` path and its current filters as query parameters: the header offers "Export CSV" of all of it. */
  exportCsv?: { path: string; params: Record<string, string | undefined> };
  /** The create action, in the header and in the empty list. Leave it out where the key may not create. */
  create?: { label: string; onClick: () => void };
  /** `useListFilters(…)`: the toolbar shows "Clear filters" and the empty list says nothing matches while any is set. */
  filters?: ListFilters<S>;
  /** What the button that clears them says ("Clear filters"). */
  clearLabel?: string;
  /** The toolbar's controls, usually `<ListFilter>`s. */
  toolbar?: ReactNode;
  /** Shown between the toolbar and the table (e.g. a live status line). */
  notice?: ReactNode;
  list: PagedList<TRow>;
  columns: DataTableColumn<TRow>[];
  /** Opens a row's object (its sheet, with its id in the URL: useOpenObject). */
  onRowClick?: (row: TRow) => void;
  selectedRowId?: string;
  /** Checkboxes and a bar of bulk actions (DataTable's `selection`); cleared when the filters change unless it says otherwise. */
  selection?: RowSelection<TRow>;
  /** The empty list before anything was created. `action` defaults to the create button. */
  empty: { icon: ReactNode; title: string; description: ReactNode; action?: ReactNode };
}

export function ListPage<TRow, S extends FilterSpec>({
  title,
  rowsName = title.toLowerCase(),
  description,
  exportCsv,
  create,
  filters,
  clearLabel = 'Clear filters',
  toolbar,
  notice,
  list,
  columns,
  onRowClick,
  selectedRowId,
  selection,
  empty,
}: ListPageProps<TRow, S>) {
  return (
    <>
      <PageHeader
        title={title}
        description={description}
        actions={
          (exportCsv || create) && (
            <>
              {exportCsv && <ExportCsvButton {...exportCsv} />}
              {create && (
                <Button onClick={create.onClick}>
                  <Plus aria-hidden /> {create.label}
                </Button>
              )}
            </>
          )
        }
      />
      {toolbar && (
        <div className="mb-4 grid gap-3 sm:flex sm:flex-wrap sm:items-end">
          {toolbar}
          {filters?.active && (
            <Button variant="ghost" onClick={filters.clear}>
              {clearLabel}
            </Button>
          )}
        </div>
      )}
      {notice}
      <DataTable
        label={title}
        columns={columns}
        onRowClick={onRowClick}
        selectedRowId={selectedRowId}
        selection={selection && { resetKey: JSON.stringify(filters?.values ?? {}), ...selection }}
        {...pagedTable(list)}
        empty={
          filters?.active ? (
            <EmptyState title={`No ${rowsName} match these filters`} description="Change or clear the filters to see more." />
          ) : (
            <EmptyState
              icon={empty.icon}
              title={empty.title}
              description={empty.description}
              action={empty.action ?? (create && <Button onClick={create.onClick}>{create.label}</Button>)}
            />
          )
        }
      />
    </>
  );
}

/** One filter of the toolbar, a labelled select bound to the URL: `<ListFilter filters={filters} name="status" label="Status" … />`. */
export function ListFilter<S extends FilterSpec>({
  filters,
  name,
  label,
  placeholder,
  options,
  wide,
  children,
}: {
  filters: ListFilters<S>;
  name: keyof S & string;
  label: string;
  /** The "no filter" choice, e.g. "All statuses". */
  placeholder: string;
  options: SelectOption[];
  /** Names (campaigns, podcasts) need more room than statuses. */
  wide?: boolean;
  /** Extra options, e.g. the id in the URL when its name is not loaded. */
  children?: ReactNode;
}) {
  const id = useId();
  return (
    <div className={cn('space-y-1.5', wide ? 'sm:w-60' : 'sm:w-44')}>
      <Label htmlFor={id}>{label}</Label>
      <Select
        id={id}
        value={(filters.values[name] as string | undefined) ?? ''}
        onChange={(e) => filters.set(name, e.target.value)}
        placeholder={placeholder}
        options={options}
      >
        {children}
      </Select>
    </div>
  );
}

/**
 * A text filter bound to the URL (an id, an action): applied on Enter or when the field is left,
 * so typing does not load the list on every key. `<ListTextFilter filters={filters} name="object" label="Object id" />`
 */
export function ListTextFilter<S extends FilterSpec>({
  filters,
  name,
  label,
  placeholder,
}: {
  filters: ListFilters<S>;
  name: keyof S & string;
  label: string;
  placeholder?: string;
}) {
  const id = useId();
  const applied = (filters.values[name] as string | undefined) ?? '';
  const [text, setText] = useState(applied);
  const [shown, setShown] = useState(applied);
  // The URL changed by other means (Clear filters, back): show what it says now.
  if (shown !== applied) {
    setShown(applied);
    setText(applied);
  }
  const apply = () => {
    const value = text.trim();
    if (value !== applied) filters.set(name, value);
  };
  return (
    <div className="space-y-1.5 sm:w-56">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type="search"
        value={text}
        placeholder={placeholder}
        spellCheck={false}
        autoComplete="off"
        onChange={(e) => setText(e.target.value)}
        onBlur={apply}
        onKeyDown={(e) => {
          if (e.key === 'Enter') apply();
        }}
      />
    </div>
  );
}

/**
 * From and to days of a list with dates, bound to the URL (`?from=2026-11-01&to=2026-11-28`); the
 * page turns them into the API's `since`/`until` with `dayRange`. A "to" before "from" is refused
 * by the browser's own picker limits.
 */
export function ListDateRange<S extends FilterSpec>({
  filters,
  from = 'from',
  to = 'to',
  label = 'Date',
}: {
  filters: ListFilters<S>;
  from?: keyof S & string;
  to?: keyof S & string;
  label?: string;
}) {
  const fromId = useId();
  const toId = useId();
  const fromValue = (filters.values[from] as string | undefined) ?? '';
  const toValue = (filters.values[to] as string | undefined) ?? '';
  return (
    <fieldset className="grid grid-cols-2 gap-2 sm:w-80">
      <legend className="sr-only">{label} range</legend>
      <div className="space-y-1.5">
        <Label htmlFor={fromId}>{label} from</Label>
        <Input id={fromId} type="date" value={fromValue} max={toValue || undefined} onChange={(e) => filters.set(from, e.target.value)} />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={toId}>to</Label>
        <Input id={toId} type="date" value={toValue} min={fromValue || undefined} onChange={(e) => filters.set(to, e.target.value)} />
      </div>
    </fieldset>
  );
}

// --- Columns the list pages share ---------------------------------------------------------

/** A dash for a value that is not set. */
export function Unset() {
  return <span className="text-slate-500">—</span>;
}

/**
 * The row's own name, in bold, linking to its page when `href` is given; `below` adds what
 * qualifies it under the name (an advertiser's categories), where a column of its own would not fit.
 */
export function nameColumn<TRow extends { name: string }>(
  header: string,
  href?: (row: TRow) => string,
  below?: (row: TRow) => ReactNode,
): DataTableColumn<TRow> {
  return {
    accessorKey: 'name',
    header,
    cell: ({ row }) => {
      const name = href ? (
        <IntentLink href={href(row.original)} className="font-medium text-indigo-700 underline-offset-4 hover:underline">
          {row.original.name}
        </IntentLink>
      ) : (
        <span className="font-medium text-slate-900">{row.original.name}</span>
      );
      return below ? (
        <div className="space-y-1.5">
          {name}
          {below(row.original)}
        </div>
      ) : (
        name
      );
    },
  };
}

/**
 * Another resource named by id (a campaign, a podcast, an advertiser), sorted by its name,
 * linking to it when `href` is given; the bare id while names load or when it is not among them.
 */
export function referenceColumn<TRow>({
  id,
  header,
  names,
  idOf,
  href,
}: {
  id: string;
  header: string;
  names: Map<string, string>;
  idOf: (row: TRow) => string;
  href?: (row: TRow) => string;
}): DataTableColumn<TRow> {
  return {
    id,
    header,
    accessorFn: (row) => names.get(idOf(row)) ?? idOf(row),
    cell: ({ row, getValue }) =>
      href ? (
        <IntentLink href={href(row.original)} className="font-medium text-indigo-700 underline-offset-4 hover:underline">
          {getValue<string>()}
        </IntentLink>
      ) : (
        getValue<string>()
      ),
  };
}

/** A link out of the console (a website, a feed), opening in a new tab; a dash where the row has none. */
export function externalLinkColumn<TRow>(
  key: keyof TRow & string,
  header: string,
  text: (href: string, row: TRow) => ReactNode,
): DataTableColumn<TRow> {
  return {
    accessorKey: key,
    header,
    cell: ({ row, getValue }) => {
      const href = getValue<string | null>();
      return href ? (
        <a href={href} target="_blank" rel="noreferrer noopener" className="text-indigo-700 underline-offset-4 hover:underline">
          {text(href, row.original)}
        </a>
      ) : (
        <Unset />
      );
    },
  };
}

/** An amount in minor units with its currency ("$2,500.00"), sorted by amount. */
export function moneyColumn<TRow>(
  id: string,
  header: string,
  amount: (row: TRow) => { cents: number | null; currency: string | null },
): DataTableColumn<TRow> {
  return {
    id,
    header,
    accessorFn: (row) => amount(row).cents ?? -1,
    cell: ({ row }) => {
      const { cents, currency } = amount(row.original);
      return <span className="tabular-nums">{formatMoney(cents, currency)}</span>;
    },
  };
}

/** A timestamp in the console's one format (the reader's time zone, stated); `unset` for null ("—" unless given, e.g. "Never"). */
export function dateTimeColumn<TRow>(key: keyof TRow & string, header: string, unset?: string): DataTableColumn<TRow> {
  return {
    accessorKey: key,
    header,
    cell: ({ getValue }) => {
      return <DateTime value={getValue<string | null>()} unset={unset} />;
    },
  };
}

/** The row's buttons, right-aligned, under a header only screen readers read. */
export function actionsColumn<TRow>(cell: (row: TRow) => ReactNode): DataTableColumn<TRow> {
  return {
    id: ACTIONS_COLUMN_ID,
    header: () => <span className="sr-only">Actions</span>,
    enableSorting: false,
    cell: ({ row }) => cell(row.original),
  };
}
