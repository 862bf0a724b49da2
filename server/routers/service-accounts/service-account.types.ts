import { z } from 'zod';
import type { ServiceAccountRow } from '@/server/services/service-accounts/find-service-account';
import { idField, iso, isoOrNull, roleSchema, timestamp } from '@/server/routers/shared.types';

/** Path parameter naming a service account of the network. */
export const serviceAccountParam = {
  serviceAccountId: z.string().min(1).meta({ description: 'Service account id (sa_…).' }),
};

export const serviceAccountStatusSchema = z.enum(['active', 'deleted']);

export const serviceAccountSchema = z
  .object({
    id: z.string().meta({ example: 'sa_01jd8x6v2c9q7r5t3w1y0zabcd' }),
    network_id: idField('net'),
    name: z.string(),
    role: roleSchema.meta({ description: 'The most its keys may hold on the network.' }),
    status: serviceAccountStatusSchema,
    created_at: timestamp,
    deleted_at: timestamp.nullable(),
  })
  .meta({ id: 'ServiceAccount' });

export type ServiceAccount = z.infer<typeof serviceAccountSchema>;

export function presentServiceAccount(row: ServiceAccountRow): ServiceAccount {
  return {
    id: row.id,
    network_id: row.networkId,
    name: row.name,
    role: row.role,
    status: row.deletedAt ? 'deleted' : 'active',
    created_at: iso(row.createdAt),
    deleted_at: isoOrNull(row.deletedAt),
  };
}
