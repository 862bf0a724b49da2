import { z } from 'zod';
import { pageOf } from '@/server/http/page';
import { networkParam } from '@/server/routers/shared.types';
import { creativeIdParam, creativeSchema } from './creative.types';

export const listCreativeRevisionsInput = z.strictObject({ ...networkParam, ...creativeIdParam });

export const creativeRevisionsSchema = pageOf(creativeSchema).meta({ id: 'CreativeRevisionList' });
