'use client';

import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { ApiKey } from '@/server/routers/keys/api-key.types';
import { DetailItem, DetailList, DetailSheet, Loaded } from '@/app/(console)/_components/detail-sheet';
import { Badge, StatusBadge } from '@/app/(console)/_components/ui/badge';
import { DateTime } from '@/app/(console)/_components/ui/date-time';
import { useNetworkId } from '@/app/(console)/_lib/network';
import { useTRPC } from '@/app/(console)/_lib/trpc';
import { roleLabel } from './identity';

/** One key of the network (`/api-keys?key=key_…`): whose it is, what it may do here, its life, its buttons. */
export function KeySheet({
  keyId,
  onClose,
  ownerOf,
  actions,
}: {
  keyId: string | null;
  onClose: () => void;
  ownerOf: (key: ApiKey) => { name: string; kind: string };
  actions: (key: ApiKey) => ReactNode;
}) {
  return (
    <DetailSheet objectId={keyId} onClose={onClose} title="API key">
      {(id) => <KeyDetail keyId={id} ownerOf={ownerOf} actions={actions} />}
    </DetailSheet>
  );
}

function KeyDetail({
  keyId,
  ownerOf,
  actions,
}: {
  keyId: string;
  ownerOf: (key: ApiKey) => { name: string; kind: string };
  actions: (key: ApiKey) => ReactNode;
}) {
  const trpc = useTRPC();
  const networkId = useNetworkId();
  const key = useQuery(trpc.keys.getForNetwork.queryOptions({ networkId, keyId }));
  return (
    <Loaded query={key}>
      {(k) => {
        const owner = ownerOf(k);
        const here = k.scopes.find((s) => s.network_id === networkId);
        return (
          <div className="space-y-6">
            <DetailList>
              <DetailItem label="Name">{k.key_name}</DetailItem>
              <DetailItem label="Token starts">
                <span className="font-mono text-xs">{k.start}…</span>
              </DetailItem>
              <DetailItem label="Owner">
                {owner.name}
                <span className="block text-xs text-slate-600">{owner.kind}</span>
              </DetailItem>
              <DetailItem label="Role here">
                {here ? <Badge tone={here.role === 'administrator' ? 'accent' : 'neutral'}>{roleLabel(here.role)}</Badge> : 'No access any more'}
              </DetailItem>
              <DetailItem label="Status">
                <StatusBadge status={k.status} />
              </DetailItem>
              <DetailItem label="Created">
                <DateTime value={k.created_at} />
              </DetailItem>
              <DetailItem label="Last used">
                <DateTime value={k.last_used_at} unset="Never" />
              </DetailItem>
              <DetailItem label="Expires">
                <DateTime value={k.expires_at} unset="Never" />
              </DetailItem>
              {k.revoked_at && (
                <DetailItem label={k.status === 'active' ? 'Works until (rotated)' : 'Revoked'}>
                  <DateTime value={k.revoked_at} />
                </DetailItem>
              )}
            </DetailList>
            {actions(k)}
          </div>
        );
      }}
    </Loaded>
  );
}
