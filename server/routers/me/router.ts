import { router } from '../../trpc';
import { getMe } from './get-me';

export const meRouter = router({ get: getMe });
