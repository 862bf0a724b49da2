'use client';

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowDownCircle, ArrowUpCircle, Ban, UserMinus } from 'lucide-react';
import { useId, useState } from 'react';
import type { Invitation } from '@/server/routers/invitations/invitation.types';
import type { Member } from '@/server/routers/members/member.types';
import { ExportCsvButton } from '@/app/(console)/_components/export-csv-button';
import { Badge, StatusBadge } from '@/app/(console)/_components/ui/badge';
import { Button } from '@/app/(console)/_components/ui/button';
import { ConfirmDialog, DangerAction } from '@/app/(console)/_components/ui/confirm-dialog';
import { DataTable, type DataTableColumn, ACTIONS_COLUMN_ID } from '@/app/(console)/_components/ui/data-table';
import { Label } from '@/app/(console)/_components/ui/label';
import { Select } from '@/app/(console)/_components/ui/select';
import { EmptyState, PageHeader } from '@/app/(console)/_components/ui/states';
import { toast } from '@/app/(console)/_components/ui/toaster';
import { useCanAdminister, useMe, useNetworkId } from '@/app/(console)/_lib/network';
import { byCursor, pagedList, pagedTable } from '@/app/(console)/_lib/paged-list';
import { useTRPC } from '@/app/(console)/_lib/trpc';
import { identitySentence, roleLabel } from '@/app/(console)/console/n/[networkId]/api-keys/_components/identity';
import { InviteDialog } from './invite-dialog';
import { MemberSheet } from './member-sheet';
import { useOpenObject } from '@/app/(console)/_lib/open-object';
import { formatDateTime } from '@/app/(console)/_lib/dates';

const MEMBER_STATUS = [
  { value: 'active', label: 'Current members' },
  { value: 'removed', label: 'Removed members' },
];

const INVITATION_STATUS = [
  { value: 'pending', label: 'Pending' },
  { value: '', label: 'All' },
  { value: 'accepted', label: 'Accepted' },
  { value: 'revoked', label: 'Revoked' },
  { value: 'expired', label: 'Expired' },
];

export function MembersView() {
  const networkId = useNetworkId();
  const canAdminister = useCanAdminister(networkId);
  return (
    <div className="space-y-10">
      <div>
        <PageHeader
          title="Members"
          description="The people in this network and their roles. Read only sees everything; administrators also change things and manage people and keys."
          actions={canAdminister ? <InviteDialog networkId={networkId} /> : undefined}
        />
        <MembersTable networkId={networkId} canAdminister={canAdminister} />
      </div>
      {canAdminister && <InvitationsSection networkId={networkId} />}
    </div>
  );
}

function MembersTable({ networkId, canAdminister }: { networkId: string; canAdminister: boolean }) {
  const trpc = useTRPC();
  const [status, setStatus] = useState<'active' | 'removed'>('active');
  const statusId = useId();
  const input = { networkId, limit: 50, status };
  const members = useInfiniteQuery(trpc.members.list.infiniteQueryOptions(input, byCursor));
  const opened = useOpenObject('member');
  const columns: DataTableColumn<Member>[] = [
    {
      id: 'name',
      header: 'Name',
      accessorFn: (m) => m.user.name,
      cell: ({ row }) => (
        <div className="min-w-44">
          <div className="font-medium text-slate-900">{row.original.user.name}</div>
          {row.original.user.email && <div className="text-xs text-slate-600">{row.original.user.email}</div>}
        </div>
      ),
    },
    {
      id: 'role',
      header: 'Role',
      accessorKey: 'role',
      cell: ({ row }) => <Badge tone={row.original.role === 'administrator' ? 'accent' : 'neutral'}>{roleLabel(row.original.role)}</Badge>,
    },
    {
      id: 'since',
      header: status === 'active' ? 'Member since' : 'Removed',
      accessorFn: (m) => (status === 'active' ? m.created_at : m.updated_at),
      cell: ({ getValue }) => <span className="whitespace-nowrap">{formatDateTime(getValue() as string)}</span>,
    },
    ...(canAdminister && status === 'active'
      ? [
          {
            id: ACTIONS_COLUMN_ID,
            header: () => <span className="sr-only">Actions</span>,
            enableSorting: false,
            cell: ({ row }) => <MemberActions networkId={networkId} member={row.original} />,
          } satisfies DataTableColumn<Member>,
        ]
      : []),
  ];
  return (
    <>
      <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
        <div className="w-full space-y-1.5 sm:w-60">
          <Label htmlFor={statusId}>Show</Label>
          <Select id={statusId} value={status} onChange={(e) => setStatus(e.target.value as 'active' | 'removed')} options={MEMBER_STATUS} />
        </div>
        <ExportCsvButton path={`/networks/${networkId}/members`} params={{ status }} />
      </div>
      <DataTable
        label="Members"
        columns={columns}
        {...pagedTable(pagedList(members))}
        onRowClick={(member) => opened.open(member.id)}
        selectedRowId={opened.id ?? undefined}
        empty={
          status === 'active' ? (
            <EmptyState
              title="No members yet"
              description={canAdminister ? 'Invite someone: they join when they open the link you send them.' : 'An administrator invites people.'}
            />
          ) : (
            <EmptyState title="Nobody has been removed" />
          )
        }
      />
      <MemberSheet
        memberId={opened.id}
        onClose={opened.close}
        actions={(member) => canAdminister && member.status === 'active' && <MemberActions networkId={networkId} member={member} />}
      />
    </>
  );
}

function MemberActions({ networkId, member }: { networkId: string; member: Member }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.members.pathKey() });
  const update = useMutation(trpc.members.update.mutationOptions({ onSuccess: invalidate }));
  const remove = useMutation(trpc.members.remove.mutationOptions({ onSuccess: invalidate }));
  const name = member.user.name;

  async function run(action: () => Promise<unknown>, what: string) {
    setError(null);
    try {
      await action();
    } catch (e) {
      setError(identitySentence(e, what));
      throw e;
    }
  }

  return (
    <div className="flex justify-end gap-2">
      {member.role === 'administrator' ? (
        <ConfirmDialog
          trigger={
            <Button variant="secondary" size="sm" aria-label={`Make ${name} read only`} onClick={() => setError(null)}>
              <ArrowDownCircle aria-hidden /> Make read only
            </Button>
          }
          title={`Make ${name} read only?`}
          description="They keep seeing everything but can no longer change anything, manage people or keys. Their keys read only from their next request."
          confirmLabel="Make read only"
          destructive={false}
          error={error}
          onConfirm={() =>
            run(() => update.mutateAsync({ networkId, memberId: member.id, role: 'read_only', version: member.version }), 'change the role')
          }
        />
      ) : (
        <Button
          variant="secondary"
          size="sm"
          aria-label={`Make ${name} administrator`}
          loading={update.isPending}
          onClick={() =>
            update.mutate(
              { networkId, memberId: member.id, role: 'administrator', version: member.version },
              {
                onError: (e) => toast.error(identitySentence(e, 'change the role')),
              },
            )
          }
        >
          <ArrowUpCircle aria-hidden /> Make administrator
        </Button>
      )}
      <ConfirmDialog
        trigger={
          <Button variant="ghost" size="sm" className="text-red-700 hover:bg-red-50" aria-label={`Remove ${name}`} onClick={() => setError(null)}>
            <UserMinus aria-hidden /> Remove
          </Button>
        }
        title={`Remove ${name} from the network?`}
        description="Their keys stop reaching this network from their next request. To bring them back, invite them again."
        confirmLabel="Remove member"
        error={error}
        onConfirm={() => run(() => remove.mutateAsync({ networkId, memberId: member.id }), 'remove the member')}
      />
    </div>
  );
}

function InvitationsSection({ networkId }: { networkId: string }) {
  const trpc = useTRPC();
  const [status, setStatus] = useState('pending');
  const statusId = useId();
  const me = useMe().data;
  const input = { networkId, limit: 50, ...(status ? { status: status as Invitation['status'] } : {}) };
  const invitations = useInfiniteQuery(trpc.invitations.list.infiniteQueryOptions(input, byCursor));
  // To name who invited: the network's keys (administrators may list them).
  const keys = useQuery(trpc.keys.listForNetwork.queryOptions({ networkId, limit: 200 }));
  const members = useQuery(trpc.members.list.queryOptions({ networkId, limit: 200 }));
  function invitedBy(keyId: string | null): string {
    if (!keyId) return '—';
    if (me?.key_id === keyId) return 'You';
    const key = keys.data?.items.find((k) => k.id === keyId);
    if (!key) return 'A key outside this network';
    if (key.owner.type === 'person') {
      const member = members.data?.items.find((m) => m.user.id === key.owner.id);
      if (member) return member.user.name;
    }
    return `Key “${key.key_name}”`;
  }
  const columns: DataTableColumn<Invitation>[] = [
    {
      id: 'email',
      header: 'Email',
      accessorKey: 'email',
      cell: ({ row }) => <span className="font-medium text-slate-900">{row.original.email}</span>,
    },
    {
      id: 'role',
      header: 'Role',
      accessorKey: 'role',
      cell: ({ row }) => <Badge tone={row.original.role === 'administrator' ? 'accent' : 'neutral'}>{roleLabel(row.original.role)}</Badge>,
    },
    {
      id: 'invited_by',
      header: 'Invited by',
      accessorFn: (i) => invitedBy(i.invited_by_key_id),
      cell: ({ getValue }) => <span className="whitespace-nowrap">{getValue() as string}</span>,
    },
    {
      id: 'expires',
      header: 'Expires',
      accessorKey: 'expires_at',
      cell: ({ row }) => (
        <span className="whitespace-nowrap">
          {row.original.status === 'accepted' ? `Accepted ${formatDateTime(row.original.accepted_at)}` : formatDateTime(row.original.expires_at)}
        </span>
      ),
    },
    { id: 'status', header: 'Status', accessorKey: 'status', cell: ({ row }) => <StatusBadge status={row.original.status} /> },
    {
      id: ACTIONS_COLUMN_ID,
      header: () => <span className="sr-only">Actions</span>,
      enableSorting: false,
      cell: ({ row }) => (row.original.status === 'pending' ? <RevokeInvitation networkId={networkId} invitation={row.original} /> : null),
    },
  ];
  return (
    <section aria-labelledby="invitations-heading">
      <h2 id="invitations-heading" className="text-lg font-semibold text-slate-900">
        Invitations
      </h2>
      <p className="mt-1 mb-4 max-w-prose text-sm text-slate-600">
        Each invitation is emailed to the person with its link. If it was lost, revoke the invitation and invite them again: a new email goes out.
      </p>
      <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
        <div className="w-full space-y-1.5 sm:w-60">
          <Label htmlFor={statusId}>Status</Label>
          <Select id={statusId} value={status} onChange={(e) => setStatus(e.target.value)} options={INVITATION_STATUS} />
        </div>
        <ExportCsvButton path={`/networks/${networkId}/invitations`} params={{ status }} label="Export invitations CSV" />
      </div>
      <DataTable
        label="Invitations"
        columns={columns}
        {...pagedTable(pagedList(invitations))}
        empty={
          <EmptyState title={status === 'pending' ? 'No pending invitations' : 'No invitations'} description="Use “Invite member” to add someone." />
        }
      />
    </section>
  );
}

function RevokeInvitation({ networkId, invitation }: { networkId: string; invitation: Invitation }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const revoke = useMutation(
    trpc.invitations.revoke.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.invitations.pathKey() }) }),
  );
  return (
    <div className="flex justify-end">
      <DangerAction
        label="Revoke"
        icon={<Ban aria-hidden />}
        ariaLabel={`Revoke the invitation for ${invitation.email}`}
        title={`Revoke the invitation for ${invitation.email}?`}
        description="The link stops working at once. You can invite them again later."
        confirmLabel="Revoke invitation"
        action={() => revoke.mutateAsync({ networkId, invitationId: invitation.id })}
        failure={(e) => identitySentence(e, 'revoke the invitation')}
      />
    </div>
  );
}
