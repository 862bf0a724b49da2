import { z } from 'zod';
import { LIVE_NETWORK_KEY_LIFETIME_DAYS } from '@/domain/key-lifetime';
import { MODES } from '@/domain/modes';
import { nameField } from '@/server/routers/shared.types';
import { keyLifetimeField } from './network.types';

export const createNetworkInput = z.strictObject({
  name: nameField,
  mode: z
    .enum(MODES, { error: 'mode must be "test" or "live".' })
    .meta({
      description:
        'A `test` network is a sandbox: `sk_test_` keys, the local voice engine, deliveries marked as tests. Fixed at creation. ' +
        "Default: the service's mode (`APP_ENV`); under `APP_ENV=test` only `test`. A live network needs a live (`sk_live_`) super_user key.",
    })
    .optional(),
  max_key_lifetime_days: keyLifetimeField
    .optional()
    .meta({ description: `Default: ${LIVE_NETWORK_KEY_LIFETIME_DAYS} for a live network, no limit for a test network.` }),
  sample_data: z
    .boolean({ error: 'sample_data must be true or false.' })
    .meta({
      description:
        'Fill the new network with sample advertisers, campaigns, podcasts and offers, in the same transaction. Test networks only (a 400 otherwise).',
    })
    .optional(),
});
