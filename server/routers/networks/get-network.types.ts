import { z } from 'zod';
import { networkParam } from '@/server/routers/shared.types';

export const getNetworkInput = z.strictObject({ ...networkParam });
