import { router } from '../../trpc';

export const serviceAccountsRouter = router({});
