import { router } from '@/server/trpc';
import { getCurrentVoiceConsentRoute } from './get-current-voice-consent';
import { getVoiceConsentRoute } from './get-voice-consent';
import { grantVoiceConsentRoute } from './grant-voice-consent';
import { listVoiceConsentsRoute } from './list-voice-consents';
import { refuseVoiceConsentRoute } from './refuse-voice-consent';
import { requestVoiceConsentRoute } from './request-voice-consent';
import { revokeCurrentVoiceConsentRoute } from './revoke-current-voice-consent';
import { revokeVoiceConsentRoute } from './revoke-voice-consent';

export const voiceConsentsRouter = router({
  // The host's link (no API key): the static paths.
  current: getCurrentVoiceConsentRoute,
  grant: grantVoiceConsentRoute,
  refuse: refuseVoiceConsentRoute,
  revokeCurrent: revokeCurrentVoiceConsentRoute,
  // The network's.
  list: listVoiceConsentsRoute,
  request: requestVoiceConsentRoute,
  get: getVoiceConsentRoute,
  revoke: revokeVoiceConsentRoute,
});
