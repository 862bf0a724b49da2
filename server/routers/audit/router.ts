import { router } from '@/server/trpc';
import { listAuditLogRoute } from './list-audit-log';

export const auditRouter = router({ list: listAuditLogRoute });
