import { z } from 'zod';
import { nameField, networkParam, versionField } from '@/server/routers/shared.types';
import { keyLifetimeField } from './network.types';

export const updateNetworkInput = z.strictObject({
  ...networkParam,
  name: nameField.optional(),
  max_key_lifetime_days: keyLifetimeField.optional(),
  version: versionField,
});
