'use client';

import { useState } from 'react';
import { toast } from '@/app/(console)/_components/ui/toaster';
import { readApiKey } from './session';

/**
 * A list downloaded as CSV: the same `/v1` list with `Accept: text/csv` (server/transport/csv.ts),
 * with the page's filters, under the signed-in key — so it holds exactly what the key may list.
 * The server streams every page; a stream cut short (a key revoked meanwhile, a dropped
 * connection) fails the download with a message instead of saving part of the file.
 */
export function useCsvExport() {
  const [exporting, setExporting] = useState(false);
  async function run(path: string, params: Record<string, string | undefined>) {
    setExporting(true);
    try {
      const query = new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => Boolean(entry[1])));
      const response = await fetch(`/v1${path}${query.size ? `?${query.toString()}` : ''}`, {
        headers: { Authorization: `Bearer ${readApiKey() ?? ''}`, Accept: 'text/csv' },
      });
      if (!response.ok) {
        const problem = (await response.json().catch(() => ({}))) as { detail?: string };
        toast.error(`Export failed: ${problem.detail ?? `the API answered ${response.status}.`}`);
        return;
      }
      const blob = await response.blob();
      const filename = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'export.csv';
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = filename;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
      toast.success(`Exported ${filename}.`);
    } catch {
      toast.error('Export stopped before the end (the connection dropped or the key lost access). Nothing was saved; try again.');
    } finally {
      setExporting(false);
    }
  }
  return { exporting, run };
}
