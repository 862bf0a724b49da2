import { z } from 'zod';
import { nameField } from '@/server/routers/shared.types';

export const createNetworkInput = z.strictObject({ name: nameField });
