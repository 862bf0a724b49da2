import type { AuditEntry } from './record-audit';

type AuditTargetType = AuditEntry['targetType'];

// A Record so that the compiler insists on every target type `recordAudit` can write.
const TARGET_TYPES: Record<AuditTargetType, true> = {
  api_key: true,
  member: true,
  invitation: true,
  service_account: true,
  webhook: true,
  network: true,
  voice_consent: true,
  creative: true,
};
export const AUDIT_TARGET_TYPES = Object.keys(TARGET_TYPES) as [AuditTargetType, ...AuditTargetType[]];
