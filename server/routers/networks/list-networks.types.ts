import { z } from 'zod';
import { listParams, pageOf } from '@/server/http/page';
import { networkSchema } from './network.types';

export const listNetworksInput = z.strictObject({ ...listParams });
export const listNetworksOutput = pageOf(networkSchema).meta({ id: 'NetworkList' });
