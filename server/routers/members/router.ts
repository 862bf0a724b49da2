import { router } from '../../trpc';

export const membersRouter = router({});
