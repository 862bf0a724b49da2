import { z } from 'zod';
import { networkParam } from '@/server/routers/shared.types';
import { rotateOwnKeyInput } from './rotate-own-key.types';

export const rotateNetworkKeyInput = z.strictObject({ ...networkParam, ...rotateOwnKeyInput.shape });
