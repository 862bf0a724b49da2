import { router } from '../../trpc';

export const keysRouter = router({});
