import { z } from 'zod';
import { keyIdParam } from './api-key.types';

export const getOwnKeyInput = z.strictObject({ ...keyIdParam });
