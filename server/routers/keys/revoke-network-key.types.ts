import { z } from 'zod';
import { networkParam } from '@/server/routers/shared.types';
import { keyIdParam } from './api-key.types';

export const revokeNetworkKeyInput = z.strictObject({ ...networkParam, ...keyIdParam });
