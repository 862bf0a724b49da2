'use client';

import { Construction } from 'lucide-react';
import { Card } from './ui/card';
import { EmptyState, PageHeader } from './ui/states';

/** Stand-in for a section whose page is not built yet. */
export function PlaceholderPage({ title, description }: { title: string; description: string }) {
  return (
    <>
      <PageHeader title={title} description={description} />
      <Card>
        <EmptyState icon={<Construction className="size-6" />} title="Coming soon" description="This page is being built." />
      </Card>
    </>
  );
}
