import { z } from 'zod';
import { listParams } from '@/server/http/page';

export const listOwnKeysInput = z.strictObject({ ...listParams });
