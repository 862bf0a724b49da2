'use client';

import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { ScrollText, ShieldAlert } from 'lucide-react';
import { useMemo } from 'react';
import { auditTargetTypeSchema } from '@/server/routers/audit/list-audit-log.types';
import { ListDateRange, ListFilter, ListPage, ListTextFilter } from '@/app/(console)/_components/list-page';
import type { DataTableColumn } from '@/app/(console)/_components/ui/data-table';
import { DateTime } from '@/app/(console)/_components/ui/date-time';
import { IntentLink } from '@/app/(console)/_components/ui/intent-link';
import { looksLikeId, ObjectId } from '@/app/(console)/_components/object-id';
import { optionsOf } from '@/app/(console)/_components/ui/select';
import { EmptyState, PageHeader } from '@/app/(console)/_components/ui/states';
import { networkPath, useCanAdminister, useNetworkId, useNetworkRole } from '@/app/(console)/_lib/network';
import { objectLink } from '@/app/(console)/_lib/object-links';
import { byCursor, pagedList } from '@/app/(console)/_lib/paged-list';
import { useTRPC, type RouterOutputs } from '@/app/(console)/_lib/trpc';
import { dayRange, useListFilters, type ListFilters } from '@/app/(console)/_lib/url-filters';

type AuditEntry = RouterOutputs['audit']['list']['items'][number];

const FILTERS = { target_type: auditTargetTypeSchema.options, action: 'id', object: 'id', actor: 'id', from: 'date', to: 'date' } as const;

/** Who changed what in the network (administrators): keys, members, invitations, service accounts, webhooks. */
export function AuditLogPage() {
  const networkId = useNetworkId();
  const role = useNetworkRole(networkId);
  const canAdminister = useCanAdminister(networkId);
  const filters = useListFilters(FILTERS);
  if (!canAdminister) {
    return (
      <>
        <PageHeader title="Audit log" description="Who changed what in this network." />
        {role && (
          <EmptyState
            icon={<ShieldAlert className="size-6" />}
            title="For administrators"
            description="The audit log shows changes to keys, members and webhooks; only the network’s administrators can read it."
          />
        )}
      </>
    );
  }
  return <AuditLog networkId={networkId} filters={filters} />;
}

function AuditLog({ networkId, filters }: { networkId: string; filters: ListFilters<typeof FILTERS> }) {
  const trpc = useTRPC();
  const { target_type, action, object, actor, from, to } = filters.values;
  const list = pagedList(
    useInfiniteQuery(
      trpc.audit.list.infiniteQueryOptions(
        { networkId, limit: 50, order: 'desc', target_type, action, target_id: object, actor_key_id: actor, ...dayRange(from, to) },
        byCursor,
      ),
    ),
  );
  // The network's keys by id, to name who made each change (a key beyond the first 200 shows as "Key").
  const keys = useQuery(trpc.keys.listForNetwork.queryOptions({ networkId, limit: 200 }, { staleTime: 60_000 }));
  const keyNames = useMemo(() => new Map((keys.data?.items ?? []).map((k) => [k.id, k.key_name])), [keys.data]);

  const columns = useMemo<DataTableColumn<AuditEntry>[]>(
    () => [
      {
        // The action and when, in one column: the log is newest first, and five columns fit a laptop's table.
        accessorKey: 'action',
        header: 'Change',
        cell: ({ row }) => (
          <div>
            <div className="font-mono text-xs font-medium whitespace-nowrap text-slate-900">{row.original.action}</div>
            <DateTime value={row.original.occurred_at} className="text-xs text-slate-600" />
          </div>
        ),
      },
      {
        id: 'object',
        header: 'Object',
        accessorFn: (e) => e.target_id,
        cell: ({ row }) => <ObjectCell networkId={networkId} id={row.original.target_id} type={row.original.target_type} />,
      },
      {
        id: 'actor',
        header: 'By',
        accessorFn: (e) => (e.actor_key_id ? (keyNames.get(e.actor_key_id) ?? e.actor_key_id) : ''),
        cell: ({ row }) => {
          const actor = row.original.actor_key_id;
          if (!actor) return <span className="text-slate-600">An invitation link or the service</span>;
          return (
            <div className="max-w-44 min-w-0">
              <IntentLink
                href={`${networkPath(networkId, 'audit-log')}?${new URLSearchParams({ actor }).toString()}`}
                title="Every change made with this key"
                className="font-medium text-indigo-700 underline-offset-4 hover:underline"
              >
                {keyNames.get(actor) ?? 'Key'}
              </IntentLink>
              <ObjectId networkId={networkId} id={actor} className="block" />
            </div>
          );
        },
      },
      {
        id: 'details',
        header: 'Details',
        enableSorting: false,
        cell: ({ row }) => <Details networkId={networkId} data={row.original.data} />,
      },
    ],
    [networkId, keyNames],
  );

  return (
    <ListPage
      title="Audit log"
      exportCsv={{
        path: `/networks/${networkId}/audit-log`,
        params: { order: 'desc', target_type, action, target_id: object, actor_key_id: actor, ...dayRange(from, to) },
      }}
      rowsName="audit log entries"
      description="Who changed what in this network, newest first: keys, members, invitations, service accounts and webhooks. Never a secret."
      filters={filters}
      toolbar={
        <>
          <ListFilter
            filters={filters}
            name="target_type"
            label="Object type"
            placeholder="All types"
            options={optionsOf(auditTargetTypeSchema.options)}
          />
          <ListTextFilter filters={filters} name="action" label="Action" placeholder="api_key.revoked" />
          <ListTextFilter filters={filters} name="object" label="Object id" placeholder="key_…, mem_…, whk_…" />
          <ListTextFilter filters={filters} name="actor" label="By key" placeholder="key_…" />
          <ListDateRange filters={filters} label="When" />
        </>
      }
      list={list}
      columns={columns}
      empty={{
        icon: <ScrollText className="size-6" />,
        title: 'Nothing changed yet',
        description: 'Minting, rotating or revoking keys, inviting or removing members, and changing webhooks are recorded here.',
      }}
    />
  );
}

function ObjectCell({ networkId, id, type }: { networkId: string; id: string; type: string }) {
  return (
    <div className="max-w-44 min-w-0">
      <div className="text-xs text-slate-600">{objectLink(networkId, id)?.kind ?? type.replace(/_/g, ' ')}</div>
      <ObjectId networkId={networkId} id={id} />
    </div>
  );
}

/** What changed, as `field: value` lines (values as the API gives them; nested ones as JSON). */
function Details({ networkId, data }: { networkId: string; data: Record<string, unknown> }) {
  const entries = Object.entries(data);
  if (entries.length === 0) return <span className="text-slate-500">—</span>;
  return (
    <dl className="grid max-w-60 grid-cols-[auto_1fr] gap-x-2 text-xs">
      {entries.map(([field, value]) => (
        <div key={field} className="contents">
          <dt className="text-slate-600">{field}</dt>
          <dd className="min-w-0 break-all text-slate-900">
            {looksLikeId(value) ? <ObjectId networkId={networkId} id={value} /> : typeof value === 'string' ? value : JSON.stringify(value)}
          </dd>
        </div>
      ))}
    </dl>
  );
}
