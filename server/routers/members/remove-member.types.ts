import { z } from 'zod';
import { memberParams } from './member.types';

export const removeMemberInput = z.strictObject({ ...memberParams });
