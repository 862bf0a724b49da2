import { z } from 'zod';
import { advertiserParams } from './advertiser.types';

export const deleteAdvertiserInput = z.strictObject({ ...advertiserParams });
