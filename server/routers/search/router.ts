import { router } from '@/server/trpc';
import { searchRoute } from './search';

export const searchRouter = router({ network: searchRoute });
