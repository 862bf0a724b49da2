import { z } from 'zod';
import { advertiserParams } from './advertiser.types';

export const getAdvertiserInput = z.strictObject({ ...advertiserParams });
