import { z } from 'zod';
import { keyIdParam } from './api-key.types';

export const revokeOwnKeyInput = z.strictObject({ ...keyIdParam });
