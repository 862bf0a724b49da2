import { z } from 'zod';
import { networkParam } from '../shared.types';

export const getNetworkInput = z.strictObject({ ...networkParam });
