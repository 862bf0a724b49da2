import { AuditLogPage } from './_components/audit-log-page';

export const metadata = { title: 'Audit log' };

export default function Page() {
  return <AuditLogPage />;
}
