import { router } from '@/server/trpc';
import { listPasskeysRoute } from './list-passkeys';
import { passkeyRegistrationOptionsRoute } from './passkey-registration-options';
import { registerPasskeyRoute } from './register-passkey';
import { removePasskeyRoute } from './remove-passkey';

export const passkeysRouter = router({
  registrationOptions: passkeyRegistrationOptionsRoute,
  register: registerPasskeyRoute,
  list: listPasskeysRoute,
  remove: removePasskeyRoute,
});
