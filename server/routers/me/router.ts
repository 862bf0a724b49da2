import { router } from '@/server/trpc';
import { getMeRoute } from './get-me';

export const meRouter = router({ get: getMeRoute });
