import { z } from 'zod';
import { networkParam } from '@/server/routers/shared.types';
import { serviceAccountParam } from './service-account.types';

export const deleteServiceAccountInput = z.strictObject({ ...networkParam, ...serviceAccountParam });
