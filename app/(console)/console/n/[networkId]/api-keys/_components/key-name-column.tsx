import type { ReactNode } from 'react';
import type { ApiKey } from '@/server/routers/keys/api-key.types';
import type { DataTableColumn } from '@/app/(console)/_components/ui/data-table';

/** A key's name and the start of its token (to recognise it), with an optional badge beside the name. */
export function keyNameColumn(badge?: (key: ApiKey) => ReactNode): DataTableColumn<ApiKey> {
  return {
    id: 'name',
    header: 'Name and start',
    accessorKey: 'key_name',
    cell: ({ row }) => (
      <div>
        <div className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
          {row.original.key_name}
          {badge?.(row.original)}
        </div>
        <code className="font-mono text-xs whitespace-nowrap text-slate-600">{row.original.start}…</code>
      </div>
    ),
  };
}
