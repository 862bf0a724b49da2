import type { VoiceConsentStatus } from '@/domain/voice-consent';

/** What the status is derived from (a voice_consents row has these). */
export interface ConsentTimes {
  status: 'pending' | 'granted' | 'refused' | 'revoked';
  linkExpiresAt: Date;
  expiresAt: Date | null;
}

// Pure (no database code): the API schemas that present consents are imported by the console too.
/**
 * What the API shows: `expired` is a pending consent whose link has ended (nobody can decide it any
 * more) or a granted one past its `expires_at` — never stored, as an invitation's is not.
 */
export function voiceConsentStatus(row: ConsentTimes, now = Date.now()): VoiceConsentStatus {
  if (row.status === 'pending' && row.linkExpiresAt.getTime() <= now) return 'expired';
  if (row.status === 'granted' && row.expiresAt && row.expiresAt.getTime() <= now) return 'expired';
  return row.status;
}

/** Whether the host's link still opens the consent: until its end, whatever the consent's state. */
export const linkWorks = (row: Pick<ConsentTimes, 'linkExpiresAt'>, now = Date.now()) => row.linkExpiresAt.getTime() > now;
