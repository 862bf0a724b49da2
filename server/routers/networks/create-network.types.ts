import { z } from 'zod';
import { nameField } from '../shared.types';

export const createNetworkInput = z.strictObject({ name: nameField });
