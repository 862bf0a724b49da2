import { z } from 'zod';
import { roleSchema, versionField } from '@/server/routers/shared.types';
import { memberParams } from './member.types';

export const updateMemberInput = z.strictObject({ ...memberParams, role: roleSchema, version: versionField });
