import { z } from 'zod';
import { networkParam } from '@/server/routers/shared.types';
import { serviceAccountParam } from './service-account.types';

export const getServiceAccountInput = z.strictObject({ ...networkParam, ...serviceAccountParam });
