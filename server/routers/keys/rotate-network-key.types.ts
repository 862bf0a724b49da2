import { z } from 'zod';
import { networkParam } from '../shared.types';
import { rotateKeyInput } from './own-keys.types';

export const rotateNetworkKeyInput = z.strictObject({ ...networkParam, ...rotateKeyInput.shape });
