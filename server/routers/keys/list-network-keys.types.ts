import { z } from 'zod';
import { listParams } from '@/server/http/page';
import { networkParam } from '@/server/routers/shared.types';

export const listNetworkKeysInput = z.strictObject({ ...networkParam, ...listParams });
