import { router } from '@/server/trpc';
import { getAdCategoryRoute } from './get-ad-category';
import { listAdCategoriesRoute } from './list-ad-categories';

export const adCategoriesRouter = router({
  list: listAdCategoriesRoute,
  get: getAdCategoryRoute,
});
