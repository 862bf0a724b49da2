import { z } from 'zod';
import { listParams, pageOf } from '@/server/http/page';
import { networkParam } from '@/server/routers/shared.types';
import { advertiserSchema } from './advertiser.types';

export const listAdvertisersInput = z.strictObject({ ...networkParam, ...listParams });

export const listAdvertisersOutput = pageOf(advertiserSchema).meta({ id: 'AdvertiserList' });
