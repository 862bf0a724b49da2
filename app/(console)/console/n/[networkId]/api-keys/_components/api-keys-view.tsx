'use client';

import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { ShieldAlert, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import type { ApiKey } from '@/server/routers/keys/api-key.types';
import { KEY_STATUSES, type KeyStatus } from '@/domain/statuses';
import { ExportCsvButton } from '@/app/(console)/_components/export-csv-button';
import { doneAs, useBulkRun } from '@/app/(console)/_components/bulk-run';
import { Badge, StatusBadge } from '@/app/(console)/_components/ui/badge';
import { Button } from '@/app/(console)/_components/ui/button';
import { ConfirmDialog } from '@/app/(console)/_components/ui/confirm-dialog';
import { DataTable, type DataTableColumn, ACTIONS_COLUMN_ID } from '@/app/(console)/_components/ui/data-table';
import { Label } from '@/app/(console)/_components/ui/label';
import { Select } from '@/app/(console)/_components/ui/select';
import { EmptyState, PageHeader } from '@/app/(console)/_components/ui/states';
import { useCanAdminister, useNetworkId, useNetworkRole } from '@/app/(console)/_lib/network';
import { byCursor, pagedList, pagedTable } from '@/app/(console)/_lib/paged-list';
import { useUrlFilters } from '@/app/(console)/_lib/url-filters';
import { useOpenObject } from '@/app/(console)/_lib/open-object';
import { useTRPC, useTRPCClient } from '@/app/(console)/_lib/trpc';
import { identitySentence, roleLabel, useIdentityDirectory } from './identity';
import { keyNameColumn } from './key-name-column';
import { KeySheet } from './key-sheet';
import { MintKeyDialog } from './mint-key-dialog';
import { RevokeKeyDialog } from './revoke-key-dialog';
import { RotatedKeyReveal, RotateKeyDialog, type RotatedKey } from './rotate-key-dialog';
import { formatDateTime } from '@/app/(console)/_lib/dates';

const STATUS_FILTERS = [
  { value: '', label: 'Any status' },
  { value: 'active', label: 'Active' },
  { value: 'expired', label: 'Expired' },
  { value: 'revoked', label: 'Revoked' },
];

/** What the row's Revoke button is offered for (KeyActions): the bulk revoke selects the same keys. */
function revocable(key: ApiKey): boolean {
  return key.status === 'active';
}

/** A key as a checkbox and a result name it: names repeat, the start tells them apart. */
const keyLabel = (key: ApiKey) => `${key.key_name} (${key.start}…)`;

/** Active, but rotated: it stops at revoked_at (the end of the grace period). */
function inGracePeriod(key: ApiKey): boolean {
  return key.status === 'active' && key.replaced_by_key_id !== null && key.revoked_at !== null;
}

export function ApiKeysView() {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const role = useNetworkRole(networkId);
  const canAdminister = useCanAdminister(networkId);
  const { searchParams: search, setFilter, clearFilters } = useUrlFilters();
  const ownerFilter = search.get('owner') ?? '';
  const statusFilter = search.get('status') ?? '';
  const ownerFilterId = useId();
  const statusFilterId = useId();
  const directory = useIdentityDirectory(networkId);
  const [rotated, setRotated] = useState<RotatedKey | null>(null);
  const opened = useOpenObject('key');
  const queryClient = useQueryClient();
  const revoke = useMutation(trpc.keys.revokeForNetwork.mutationOptions());
  const client = useTRPCClient();
  const bulk = useBulkRun({
    sentence: (e) => identitySentence(e),
    onFinished: () => queryClient.invalidateQueries({ queryKey: trpc.keys.pathKey() }),
  });

  // The filters go to the API (owner_id, status), so the table and Export CSV hold the same keys.
  const filters = {
    owner_id: ownerFilter || undefined,
    status: KEY_STATUSES.find((s): s is KeyStatus => s === statusFilter),
  };
  const keys = useInfiniteQuery(
    trpc.keys.listForNetwork.infiniteQueryOptions(
      { networkId, limit: 50, ...filters },
      {
        ...byCursor,
        enabled: canAdminister,
      },
    ),
  );
  const rows = keys.data?.pages.flatMap((p) => p.items);

  function ownerName(key: ApiKey): { name: string; kind: string } {
    if (key.owner.type === 'service_account') {
      return { name: directory.accountById.get(key.owner.id)?.name ?? 'Deleted service account', kind: 'Service account' };
    }
    const member = directory.memberByUserId.get(key.owner.id);
    return member ? { name: member.user.name, kind: member.user.email ?? 'Member' } : { name: 'Not a member', kind: 'Person' };
  }

  const columns: DataTableColumn<ApiKey>[] = [
    keyNameColumn(),
    {
      id: 'owner',
      header: 'Owner',
      accessorFn: (k) => ownerName(k).name,
      cell: ({ row }) => {
        const owner = ownerName(row.original);
        return (
          <div>
            <div className="text-slate-900">{owner.name}</div>
            <div className="text-xs text-slate-600">{owner.kind}</div>
          </div>
        );
      },
    },
    {
      id: 'role',
      header: 'Role',
      accessorFn: (k) => k.scopes.find((s) => s.network_id === networkId)?.role ?? '',
      cell: ({ row }) => {
        const key = row.original;
        const here = key.scopes.find((s) => s.network_id === networkId);
        const elsewhere = key.scopes.length - (here ? 1 : 0);
        return (
          <div className="flex flex-col items-start gap-1">
            {key.super_user && <Badge tone="accent">super user</Badge>}
            {here && <Badge tone={here.role === 'administrator' ? 'accent' : 'neutral'}>{roleLabel(here.role)}</Badge>}
            {elsewhere > 0 && (
              <span className="text-xs text-slate-600">
                + {elsewhere} other network{elsewhere > 1 ? 's' : ''}
              </span>
            )}
          </div>
        );
      },
    },
    {
      id: 'last_used',
      header: 'Last used',
      accessorKey: 'last_used_at',
      cell: ({ row }) => <span>{formatDateTime(row.original.last_used_at, 'Never')}</span>,
    },
    {
      id: 'expires',
      header: 'Expires',
      accessorKey: 'expires_at',
      cell: ({ row }) => <span>{formatDateTime(row.original.expires_at, 'Never')}</span>,
    },
    {
      id: 'status',
      header: 'Status',
      accessorKey: 'status',
      cell: ({ row }) => {
        const key = row.original;
        if (inGracePeriod(key)) {
          return (
            <div className="flex flex-col items-start gap-1">
              <Badge tone="warning">rotated</Badge>
              <span className="text-xs text-slate-600">works until {formatDateTime(key.revoked_at)}</span>
            </div>
          );
        }
        return (
          <div className="flex flex-col items-start gap-1">
            <StatusBadge status={key.status} />
            {key.status === 'revoked' && key.revoked_at && (
              <span className="text-xs whitespace-nowrap text-slate-600">{formatDateTime(key.revoked_at)}</span>
            )}
          </div>
        );
      },
    },
    ...(canAdminister
      ? [
          {
            id: ACTIONS_COLUMN_ID,
            header: () => <span className="sr-only">Actions</span>,
            enableSorting: false,
            cell: ({ row }) => <KeyActions networkId={networkId} apiKey={row.original} onRotated={setRotated} />,
          } satisfies DataTableColumn<ApiKey>,
        ]
      : []),
  ];

  const filtered = Boolean(ownerFilter || statusFilter);
  const accounts = directory.accounts.data?.items ?? [];
  const members = directory.members.data?.items ?? [];

  return (
    <div>
      <PageHeader
        title="API keys"
        description="Every key that reaches this network: members’ keys and service accounts’ keys. Tokens are never stored in clear, only their start to recognise them."
        actions={
          canAdminister ? (
            <>
              <ExportCsvButton path={`/networks/${networkId}/apikeys`} params={filters} />
              <MintKeyDialog networkId={networkId} />
            </>
          ) : undefined
        }
      />
      {role === 'read_only' ? (
        <EmptyState
          icon={<ShieldAlert className="size-6" />}
          title="Only administrators can see the network’s keys"
          description="Your key can read this network. Ask an administrator to mint or revoke keys."
        />
      ) : (
        <>
          <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-end">
            <div className="space-y-1.5 sm:w-72">
              <Label htmlFor={ownerFilterId}>Owner</Label>
              <Select id={ownerFilterId} value={ownerFilter} onChange={(e) => setFilter('owner', e.target.value)}>
                <option value="">Everyone</option>
                {members.length > 0 && (
                  <optgroup label="Members">
                    {members.map((m) => (
                      <option key={m.id} value={m.user.id}>
                        {m.user.name}
                      </option>
                    ))}
                  </optgroup>
                )}
                {accounts.length > 0 && (
                  <optgroup label="Service accounts">
                    {accounts.map((a) => (
                      <option key={a.id} value={a.id}>
                        {a.name}
                      </option>
                    ))}
                  </optgroup>
                )}
                {ownerFilter && !members.some((m) => m.user.id === ownerFilter) && !accounts.some((a) => a.id === ownerFilter) && (
                  <option value={ownerFilter}>{ownerFilter}</option>
                )}
              </Select>
            </div>
            <div className="space-y-1.5 sm:w-48">
              <Label htmlFor={statusFilterId}>Status</Label>
              <Select id={statusFilterId} value={statusFilter} onChange={(e) => setFilter('status', e.target.value)} options={STATUS_FILTERS} />
            </div>
            {filtered && (
              <Button variant="ghost" size="sm" onClick={clearFilters}>
                Clear filters
              </Button>
            )}
          </div>
          <DataTable
            {...pagedTable(pagedList(keys))}
            label="API keys"
            columns={columns}
            rows={role === undefined ? undefined : rows}
            onRowClick={(key) => opened.open(key.id)}
            selectedRowId={opened.id ?? undefined}
            selection={
              canAdminister
                ? {
                    canSelect: revocable,
                    nameOf: keyLabel,
                    resetKey: `${ownerFilter}|${statusFilter}`,
                    actions: (selected, clear) => (
                      <ConfirmDialog
                        trigger={
                          <Button variant="danger" size="sm">
                            <Trash2 aria-hidden /> Revoke
                          </Button>
                        }
                        title={`Revoke ${selected.length} ${selected.length === 1 ? 'key' : 'keys'}?`}
                        description="Anything using them is refused from its next request; a key that also reaches other networks loses only this one. This cannot be undone."
                        confirmLabel={`Revoke ${selected.length} ${selected.length === 1 ? 'key' : 'keys'}`}
                        onConfirm={() => {
                          bulk.start({
                            title: 'Revoke keys',
                            done: 'revoked',
                            items: selected.map((key) => ({
                              id: key.id,
                              name: keyLabel(key),
                              perform: async () => {
                                // Revoking a revoked key answers 200 all the same: the key as it is just before
                                // tells one someone revoked since the list was loaded. Read, not compared by clock:
                                // the browser's clock need not agree with the server's revoked_at.
                                const before = await client.keys.getForNetwork.query({ networkId, keyId: key.id });
                                await revoke.mutateAsync({ networkId, keyId: key.id });
                                return before.status === 'revoked' ? doneAs('already revoked') : undefined;
                              },
                            })),
                          });
                          clear();
                        }}
                      />
                    ),
                  }
                : undefined
            }
            empty={
              filtered ? (
                <EmptyState title="No keys match these filters" />
              ) : (
                <EmptyState
                  title="No keys on this network yet"
                  description="Members get a first key when they accept their invitation. Mint keys for members or service accounts here."
                />
              )
            }
          />
        </>
      )}
      {canAdminister && (
        <KeySheet
          keyId={opened.id}
          onClose={opened.close}
          ownerOf={ownerName}
          actions={(key) => <KeyActions networkId={networkId} apiKey={key} onRotated={setRotated} />}
        />
      )}
      <RotatedKeyReveal rotated={rotated} onClose={() => setRotated(null)} />
      {bulk.dialog}
    </div>
  );
}

function KeyActions({ networkId, apiKey, onRotated }: { networkId: string; apiKey: ApiKey; onRotated: (rotated: RotatedKey) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const revoke = useMutation(
    trpc.keys.revokeForNetwork.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.keys.pathKey() }) }),
  );
  if (!revocable(apiKey)) return null;
  const reachesOthers = apiKey.scopes.some((s) => s.network_id !== networkId);
  const rotated = inGracePeriod(apiKey);
  return (
    <div className="flex flex-col items-stretch gap-1.5">
      {!rotated && !reachesOthers && !apiKey.super_user && (
        <RotateKeyDialog networkId={networkId} keyId={apiKey.id} keyName={apiKey.key_name} onRotated={onRotated} />
      )}
      <RevokeKeyDialog
        keyName={apiKey.key_name}
        description={
          reachesOthers
            ? 'This key also reaches other networks: it loses access to this network from its next request and keeps the others.'
            : 'Anything using this key is refused from its next request. This cannot be undone; mint a new key if it is needed again.'
        }
        onRevoke={() => revoke.mutateAsync({ networkId, keyId: apiKey.id })}
      />
    </div>
  );
}
