import { z } from 'zod';
import { networkParam } from '@/server/routers/shared.types';
import { keyIdParam } from './api-key.types';

export const getNetworkKeyInput = z.strictObject({ ...networkParam, ...keyIdParam });
