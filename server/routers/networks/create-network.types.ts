import { z } from 'zod';
import { LIVE_NETWORK_KEY_LIFETIME_DAYS } from '@/domain/key-lifetime';
import { nameField } from '@/server/routers/shared.types';
import { keyLifetimeField } from './network.types';

export const createNetworkInput = z.strictObject({
  name: nameField,
  max_key_lifetime_days: keyLifetimeField
    .optional()
    .meta({ description: `Default: ${LIVE_NETWORK_KEY_LIFETIME_DAYS} in live mode (APP_ENV=live), no limit in test mode.` }),
});
