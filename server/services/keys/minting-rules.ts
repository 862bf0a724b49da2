import type { Principal } from '../../auth/principal';
import { roleAtLeast, type Role } from '../../auth/roles';
import { forbidden } from '../../errors';

export interface RequestedKey {
  superUser: boolean;
  scopes: Array<{ networkId: string; role: Role }>;
}

/**
 * Spec rules 6 and 7: a new key's scopes must be within the creator's access
 * (same networks, equal or lower role), and only a super_user key may mint a
 * super_user key. Throws 403 naming the rule that was broken.
 */
export function assertWithinCreatorAccess(creator: Principal, requested: RequestedKey): void {
  if (requested.superUser && !creator.superUser) {
    throw forbidden('Only a super_user key can mint a super_user key (rule 7).');
  }
  if (creator.superUser) return;
  for (const scope of requested.scopes) {
    const held = creator.scopes.get(scope.networkId);
    if (!held) {
      throw forbidden(`A new key's scopes must be within your access: you have no access to network ${scope.networkId} (rule 6).`);
    }
    if (!roleAtLeast(held, scope.role)) {
      throw forbidden(
        `A new key's scopes must be within your access: you hold ${held} on network ${scope.networkId}, not ${scope.role} (rule 6).`,
      );
    }
  }
}
