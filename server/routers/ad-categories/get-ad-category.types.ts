import { z } from 'zod';
import { adCategoryParams } from './ad-category.types';

export const getAdCategoryInput = z.strictObject({ ...adCategoryParams });
