import { z } from 'zod';
import type { NetworkRow } from '@/server/services/networks/find-network';
import { iso, resourceVersion, timestamp } from '@/server/routers/shared.types';

export const networkSchema = z
  .object({
    id: z.string().meta({ example: 'net_01jd8x6v2c9q7r5t3w1y0zabcd' }),
    name: z.string(),
    version: resourceVersion,
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Network' });

export type Network = z.infer<typeof networkSchema>;

export function presentNetwork(row: NetworkRow): Network {
  return { id: row.id, name: row.name, version: row.version, created_at: iso(row.createdAt), updated_at: iso(row.updatedAt) };
}
