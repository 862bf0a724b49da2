import { router } from '../../trpc';
import { listAuditLog } from './list-audit-log';

export const auditRouter = router({ list: listAuditLog });
