import { z } from 'zod';
import { nameField, versionField } from '@/server/routers/shared.types';
import { advertiserParams, contactEmailField, httpUrlField } from './advertiser.types';

export const updateAdvertiserInput = z.strictObject({
  ...advertiserParams,
  name: nameField.optional(),
  website: httpUrlField('website').nullable().optional().meta({ description: 'null clears it.' }),
  contact_email: contactEmailField.nullable().optional().meta({ description: 'null clears it.' }),
  version: versionField,
});
