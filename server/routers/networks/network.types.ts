import { z } from 'zod';
import type { NetworkRow } from '@/server/services/networks/find-network';
import { versionedFields, versionedOf } from '@/server/routers/shared.types';

export const networkSchema = z
  .object({
    id: z.string().meta({ example: 'net_01jd8x6v2c9q7r5t3w1y0zabcd' }),
    name: z.string(),
    ...versionedFields,
  })
  .meta({ id: 'Network' });

export type Network = z.infer<typeof networkSchema>;

export function presentNetwork(row: NetworkRow): Network {
  return { id: row.id, name: row.name, ...versionedOf(row) };
}
