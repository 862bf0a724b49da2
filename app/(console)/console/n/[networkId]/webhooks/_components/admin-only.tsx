'use client';

import { Lock } from 'lucide-react';
import { Card } from '@/app/(console)/_components/ui/card';
import { EmptyState } from '@/app/(console)/_components/ui/states';

/** What a read_only member sees instead of the webhooks area (the API answers 403 to them). */
export function WebhooksAdminOnly() {
  return (
    <Card>
      <EmptyState
        icon={<Lock className="size-6" />}
        title="Webhooks are managed by administrators"
        description="Your role on this network is read only. Webhook subscriptions, their signing secrets and delivery logs are visible to administrators only."
      />
    </Card>
  );
}
