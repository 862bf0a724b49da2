import { z } from 'zod';
import { networkParam } from '@/server/routers/shared.types';
import { creativeIdParam } from './creative.types';

export const retryCreativeInput = z.strictObject({ ...networkParam, ...creativeIdParam });
