import { z } from 'zod';
import { listParams, pageOf } from '@/server/http/page';
import { networkParam } from '@/server/routers/shared.types';
import { serviceAccountSchema, serviceAccountStatusSchema } from './service-account.types';

export const listServiceAccountsInput = z.strictObject({
  ...networkParam,
  ...listParams,
  status: serviceAccountStatusSchema.default('active').meta({ description: 'active (default) or deleted.' }),
});

export const listServiceAccountsOutput = pageOf(serviceAccountSchema).meta({ id: 'ServiceAccountList' });
