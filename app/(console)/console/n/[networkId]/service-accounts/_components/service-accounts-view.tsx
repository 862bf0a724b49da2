'use client';

import { ExportCsvButton } from '@/app/(console)/_components/export-csv-button';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import { IntentLink } from '@/app/(console)/_components/ui/intent-link';
import { useId, useState } from 'react';
import type { ServiceAccount } from '@/server/routers/service-accounts/service-account.types';
import { Badge } from '@/app/(console)/_components/ui/badge';
import { buttonVariants } from '@/app/(console)/_components/ui/button';
import { DangerAction } from '@/app/(console)/_components/ui/confirm-dialog';
import { DataTable, type DataTableColumn, ACTIONS_COLUMN_ID } from '@/app/(console)/_components/ui/data-table';
import { Label } from '@/app/(console)/_components/ui/label';
import { Select } from '@/app/(console)/_components/ui/select';
import { EmptyState, PageHeader } from '@/app/(console)/_components/ui/states';
import { toast } from '@/app/(console)/_components/ui/toaster';
import { networkPath, useCanAdminister, useNetworkId } from '@/app/(console)/_lib/network';
import { byCursor, pagedList, pagedTable } from '@/app/(console)/_lib/paged-list';
import { useTRPC } from '@/app/(console)/_lib/trpc';
import { identitySentence, roleLabel } from '@/app/(console)/console/n/[networkId]/api-keys/_components/identity';
import { MintKeyDialog } from '@/app/(console)/console/n/[networkId]/api-keys/_components/mint-key-dialog';
import { CreateServiceAccountDialog } from './create-service-account-dialog';
import { formatDateTime } from '@/app/(console)/_lib/dates';

const STATUS = [
  { value: 'active', label: 'Active accounts' },
  { value: 'deleted', label: 'Deleted accounts' },
];

export function ServiceAccountsView() {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const canAdminister = useCanAdminister(networkId);
  const [status, setStatus] = useState<'active' | 'deleted'>('active');
  const statusId = useId();
  const input = { networkId, limit: 50, status };
  const accounts = useInfiniteQuery(trpc.serviceAccounts.list.infiniteQueryOptions(input, byCursor));

  const columns: DataTableColumn<ServiceAccount>[] = [
    { id: 'name', header: 'Name', accessorKey: 'name', cell: ({ row }) => <span className="font-medium text-slate-900">{row.original.name}</span> },
    {
      id: 'role',
      header: 'Role',
      accessorKey: 'role',
      cell: ({ row }) => <Badge tone={row.original.role === 'administrator' ? 'accent' : 'neutral'}>{roleLabel(row.original.role)}</Badge>,
    },
    {
      id: 'created',
      header: status === 'active' ? 'Created' : 'Deleted',
      accessorFn: (a) => (status === 'active' ? a.created_at : a.deleted_at),
      cell: ({ getValue }) => <span className="whitespace-nowrap">{formatDateTime(getValue() as string | null)}</span>,
    },
    {
      id: 'keys',
      header: 'Keys',
      enableSorting: false,
      cell: ({ row }) =>
        canAdminister ? (
          <IntentLink
            href={`${networkPath(networkId, 'api-keys')}?owner=${encodeURIComponent(row.original.id)}`}
            className={buttonVariants({ variant: 'link', size: 'sm' })}
            aria-label={`View the keys of ${row.original.name}`}
          >
            View keys
          </IntentLink>
        ) : (
          <span className="text-slate-600">—</span>
        ),
    },
    ...(canAdminister && status === 'active'
      ? [
          {
            id: ACTIONS_COLUMN_ID,
            header: () => <span className="sr-only">Actions</span>,
            enableSorting: false,
            cell: ({ row }) => <AccountActions networkId={networkId} account={row.original} />,
          } satisfies DataTableColumn<ServiceAccount>,
        ]
      : []),
  ];

  return (
    <div>
      <PageHeader
        title="Service accounts"
        description="Identities for programs and integrations rather than people. Each has a role on this network; its keys never hold more."
        actions={
          <>
            <ExportCsvButton path={`/networks/${networkId}/service-accounts`} params={{ status }} />
            {canAdminister && <CreateServiceAccountDialog networkId={networkId} />}
          </>
        }
      />
      <div className="mb-4 space-y-1.5 sm:w-60">
        <Label htmlFor={statusId}>Show</Label>
        <Select id={statusId} value={status} onChange={(e) => setStatus(e.target.value as 'active' | 'deleted')} options={STATUS} />
      </div>
      <DataTable
        label="Service accounts"
        columns={columns}
        {...pagedTable(pagedList(accounts))}
        empty={
          status === 'active' ? (
            <EmptyState
              title="No service accounts yet"
              description="Create one for each program that calls the API, so its access can be managed and revoked on its own."
            />
          ) : (
            <EmptyState title="No deleted service accounts" />
          )
        }
      />
    </div>
  );
}

function AccountActions({ networkId, account }: { networkId: string; account: ServiceAccount }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const remove = useMutation(
    trpc.serviceAccounts.delete.mutationOptions({
      onSuccess: () =>
        Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.serviceAccounts.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.keys.pathKey() }),
        ]),
    }),
  );
  return (
    <div className="flex justify-end gap-2">
      <MintKeyDialog
        networkId={networkId}
        owner={{ type: 'service_account', id: account.id, name: account.name, role: account.role }}
        triggerLabel="Mint key"
        triggerAriaLabel={`Mint a key for ${account.name}`}
        triggerVariant="secondary"
        triggerSize="sm"
      />
      <DangerAction
        label="Delete"
        icon={<Trash2 aria-hidden />}
        ariaLabel={`Delete ${account.name}`}
        title={`Delete ${account.name}?`}
        description="All its keys are revoked at once: programs using them are refused from their next request. This cannot be undone."
        confirmLabel="Delete service account"
        action={async () => {
          await remove.mutateAsync({ networkId, serviceAccountId: account.id });
          toast.success(`${account.name} was deleted and its keys revoked.`);
        }}
        failure={(e) => identitySentence(e, 'delete the service account')}
      />
    </div>
  );
}
