import { z } from 'zod';
import { memberParams } from './member.types';

export const getMemberInput = z.strictObject({ ...memberParams });
