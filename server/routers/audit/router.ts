import { router } from '../../trpc';

export const auditRouter = router({});
