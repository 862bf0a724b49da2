import { z } from 'zod';
import { nameField, versionField } from '@/server/routers/shared.types';
import { advertiserParams, categoriesField, contactEmailField, httpUrlField } from './advertiser.types';

export const updateAdvertiserInput = z.strictObject({
  ...advertiserParams,
  name: nameField.optional(),
  website: httpUrlField('website').nullable().optional().meta({ description: 'null clears it.' }),
  contact_email: contactEmailField.nullable().optional().meta({ description: 'null clears it.' }),
  categories: categoriesField.optional().meta({ description: 'Replaces the list; [] clears it.' }),
  version: versionField,
});
