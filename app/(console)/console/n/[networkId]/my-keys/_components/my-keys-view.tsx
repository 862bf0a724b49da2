'use client';

import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { KeySquare } from 'lucide-react';
import type { ApiKey } from '@/server/routers/keys/api-key.types';
import { Badge, StatusBadge } from '@/app/(console)/_components/ui/badge';
import { DataTable, type DataTableColumn, ACTIONS_COLUMN_ID } from '@/app/(console)/_components/ui/data-table';
import { DateTime } from '@/app/(console)/_components/ui/date-time';
import { EmptyState, PageHeader } from '@/app/(console)/_components/ui/states';
import { toast } from '@/app/(console)/_components/ui/toaster';
import { useMe, useNetworks } from '@/app/(console)/_lib/network';
import { byCursor, pagedList, pagedTable } from '@/app/(console)/_lib/paged-list';
import { useTRPC } from '@/app/(console)/_lib/trpc';
import { roleLabel } from '@/app/(console)/console/n/[networkId]/api-keys/_components/identity';
import { keyNameColumn } from '@/app/(console)/console/n/[networkId]/api-keys/_components/key-name-column';
import { RevokeKeyDialog } from '@/app/(console)/console/n/[networkId]/api-keys/_components/revoke-key-dialog';

/**
 * The signed-in owner's own keys: GET /v1/apikeys, which lists the keys of the calling key's
 * person or service account that the calling key covers (docs/keys-and-roles.md, "Managing
 * keys"). Keys beyond the signed-in key's access are not listed — the API decides, not this page.
 */
export function MyKeysView() {
  const trpc = useTRPC();
  const me = useMe();
  const networks = useNetworks();
  const networkNames = new Map((networks.data?.items ?? []).map((n) => [n.id, n.name]));
  const list = pagedList(useInfiniteQuery(trpc.keys.list.infiniteQueryOptions({ limit: 50 }, byCursor)));
  const currentKeyId = me.data?.key_id;

  const columns: DataTableColumn<ApiKey>[] = [
    keyNameColumn((key) => key.id === currentKeyId && <Badge tone="accent">signed in with this key</Badge>),
    {
      id: 'access',
      header: 'Access',
      accessorFn: (k) => (k.super_user ? 'super user' : k.scopes.length),
      enableSorting: false,
      cell: ({ row }) => {
        const key = row.original;
        if (key.super_user) return <Badge tone="accent">super user</Badge>;
        if (key.scopes.length === 0) return <span className="text-slate-600">No network</span>;
        return (
          <ul className="space-y-0.5">
            {key.scopes.map((scope) => (
              <li key={scope.network_id}>
                {networkNames.get(scope.network_id) ?? scope.network_id} <span className="text-xs text-slate-600">· {roleLabel(scope.role)}</span>
              </li>
            ))}
          </ul>
        );
      },
    },
    { id: 'status', header: 'Status', accessorKey: 'status', cell: ({ row }) => <StatusBadge status={row.original.status} /> },
    {
      id: 'last_used',
      header: 'Last used',
      accessorKey: 'last_used_at',
      cell: ({ row }) => <DateTime value={row.original.last_used_at} unset="Never" />,
    },
    { id: 'expires', header: 'Expires', accessorKey: 'expires_at', cell: ({ row }) => <DateTime value={row.original.expires_at} unset="Never" /> },
    {
      id: ACTIONS_COLUMN_ID,
      header: () => <span className="sr-only">Actions</span>,
      enableSorting: false,
      cell: ({ row }) => (row.original.status === 'active' && row.original.id !== currentKeyId ? <RevokeOwnKey apiKey={row.original} /> : null),
    },
  ];

  return (
    <>
      <PageHeader
        title="My keys"
        description={
          <>
            {me.data ? `The API keys of ${me.data.owner.name}` : 'Your own API keys'} that the key you signed in with may manage. A key that reaches
            further than this one (another network, or administrator where this key reads only) is not listed, and a key an administrator minted for
            you does not list the keys you got yourself — sign in with one of those to see them all.
          </>
        }
      />
      <DataTable
        label="My keys"
        columns={columns}
        {...pagedTable(list)}
        empty={
          <EmptyState
            icon={<KeySquare className="size-6" />}
            title="No keys to show"
            description="The key you signed in with covers none of your keys."
          />
        }
      />
    </>
  );
}

function RevokeOwnKey({ apiKey }: { apiKey: ApiKey }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const revoke = useMutation(trpc.keys.revoke.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.keys.pathKey() }) }));
  return (
    <div className="flex justify-end">
      <RevokeKeyDialog
        keyName={apiKey.key_name}
        description="Anything using this key is refused from its next request. This cannot be undone."
        onRevoke={async () => {
          await revoke.mutateAsync({ keyId: apiKey.id });
          toast.success('Key revoked.');
        }}
      />
    </div>
  );
}
