import { z } from 'zod';
import { networkParam } from '@/server/routers/shared.types';
import { creativeIdParam } from './creative.types';

export const approveCreativeInput = z.strictObject({ ...networkParam, ...creativeIdParam });
