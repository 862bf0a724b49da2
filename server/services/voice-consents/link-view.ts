import type { Queryable } from '@/db/client';
import { findVoiceConsentParties, type VoiceConsentParties, type VoiceConsentRow } from './find-voice-consents';
import { consentStatement, currentStatement, type ConsentStatement } from './statement';

/** What the host's page shows of a consent: the consent, who asks and for what, and the statement. */
export interface VoiceConsentLink {
  consent: VoiceConsentRow;
  parties: VoiceConsentParties;
  /** The statement decided on, or the current one while nothing is. */
  statement: ConsentStatement;
}

export async function readVoiceConsentLink({ db, consent }: { db: Queryable; consent: VoiceConsentRow }): Promise<VoiceConsentLink> {
  const parties = await findVoiceConsentParties({ db, consent });
  const statement = (consent.statementVersion !== null && consentStatement(consent.statementVersion)) || currentStatement();
  return { consent, parties, statement };
}
