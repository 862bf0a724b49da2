'use client';

import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { Member } from '@/server/routers/members/member.types';
import { DetailItem, DetailList, DetailSheet, Loaded } from '@/app/(console)/_components/detail-sheet';
import { Badge, StatusBadge } from '@/app/(console)/_components/ui/badge';
import { DateTime } from '@/app/(console)/_components/ui/date-time';
import { IntentLink } from '@/app/(console)/_components/ui/intent-link';
import { networkPath, useNetworkId } from '@/app/(console)/_lib/network';
import { useTRPC } from '@/app/(console)/_lib/trpc';
import { roleLabel } from '@/app/(console)/console/n/[networkId]/api-keys/_components/identity';

/** One member (`/members?member=mem_…`): who, their role and since when, a link to their keys, the buttons. */
export function MemberSheet({
  memberId,
  onClose,
  actions,
}: {
  memberId: string | null;
  onClose: () => void;
  actions: (member: Member) => ReactNode;
}) {
  return (
    <DetailSheet objectId={memberId} onClose={onClose} title="Member">
      {(id) => <MemberDetail memberId={id} actions={actions} />}
    </DetailSheet>
  );
}

function MemberDetail({ memberId, actions }: { memberId: string; actions: (member: Member) => ReactNode }) {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const member = useQuery(trpc.members.get.queryOptions({ networkId, memberId }));
  return (
    <Loaded query={member} lines={4}>
      {(m) => (
        <div className="space-y-6">
          <DetailList>
            <DetailItem label="Name">{m.user.name}</DetailItem>
            <DetailItem label="Email">{m.user.email ?? '—'}</DetailItem>
            <DetailItem label="Role">
              <Badge tone={m.role === 'administrator' ? 'accent' : 'neutral'}>{roleLabel(m.role)}</Badge>
            </DetailItem>
            <DetailItem label="Status">
              <StatusBadge status={m.status} />
            </DetailItem>
            <DetailItem label="Member since">
              <DateTime value={m.created_at} />
            </DetailItem>
            {m.status === 'removed' && (
              <DetailItem label="Removed">
                <DateTime value={m.updated_at} />
              </DetailItem>
            )}
          </DetailList>
          <p className="text-sm">
            <IntentLink
              href={`${networkPath(networkId, 'api-keys')}?owner=${encodeURIComponent(m.user.id)}`}
              className="font-medium text-indigo-700 underline-offset-4 hover:underline"
            >
              Keys of {m.user.name} on this network
            </IntentLink>
          </p>
          {actions(m)}
        </div>
      )}
    </Loaded>
  );
}
