'use client';

import { Download } from 'lucide-react';
import { Button } from '@/app/(console)/_components/ui/button';
import { useCsvExport } from '@/app/(console)/_lib/csv-export';

/**
 * "Export CSV": the whole `/v1` list at `path`, with the page's filters as `params`, as one file
 * (`useCsvExport`). A list's header carries it; `label` names which list when a page has several.
 */
export function ExportCsvButton({
  path,
  params,
  label = 'Export CSV',
  size,
}: {
  path: string;
  params: Record<string, string | undefined>;
  label?: string;
  size?: 'sm';
}) {
  const csv = useCsvExport();
  return (
    <Button variant="secondary" size={size} loading={csv.exporting} onClick={() => void csv.run(path, params)}>
      <Download aria-hidden /> {label}
    </Button>
  );
}
