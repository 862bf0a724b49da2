import { z } from 'zod';
import { nameField, networkParam } from '@/server/routers/shared.types';
import { categoriesField, contactEmailField, httpUrlField } from './advertiser.types';

export const createAdvertiserInput = z.strictObject({
  ...networkParam,
  name: nameField,
  website: httpUrlField('website').optional().meta({ description: 'The advertiser’s website (http or https URL).' }),
  contact_email: contactEmailField.optional().meta({ description: 'Who to contact at the advertiser.' }),
  categories: categoriesField.optional(),
});
