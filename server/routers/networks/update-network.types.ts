import { z } from 'zod';
import { nameField, networkParam, versionField } from '@/server/routers/shared.types';

export const updateNetworkInput = z.strictObject({ ...networkParam, name: nameField.optional(), version: versionField });
