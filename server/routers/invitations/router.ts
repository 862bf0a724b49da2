import { router } from '../../trpc';

export const invitationsRouter = router({});
