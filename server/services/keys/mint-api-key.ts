import type { Queryable } from '../../../db/client';
import { newId } from '../../../db/ids';
import { apiKeys, apiKeyScopes } from '../../../db/schema';
import type { Role } from '../../auth/roles';
import { generateApiKeyToken, hashToken, tokenStart, type KeyEnvironment } from '../../auth/tokens';

export interface MintApiKeyInput {
  name: string;
  environment: KeyEnvironment;
  owner: { userId: string } | { serviceAccountId: string };
  superUser?: boolean;
  scopes?: Array<{ networkId: string; role: Role }>;
  expiresAt?: Date | null;
  createdByKeyId?: string | null;
  /** Use this token instead of generating one (BOOTSTRAP_SUPERUSER_TOKEN). */
  token?: string;
}

/**
 * Create a key and its scopes. Returns the token once; only its SHA-256 and a
 * display start are stored. Authorisation (who may mint what) is the caller's.
 */
export async function mintApiKey(tx: Queryable, input: MintApiKeyInput) {
  const token = input.token ?? generateApiKeyToken(input.environment);
  const [key] = await tx
    .insert(apiKeys)
    .values({
      id: newId('apiKey'),
      name: input.name,
      tokenHash: hashToken(token),
      start: tokenStart(token),
      environment: input.environment,
      superUser: input.superUser ?? false,
      userId: 'userId' in input.owner ? input.owner.userId : null,
      serviceAccountId: 'serviceAccountId' in input.owner ? input.owner.serviceAccountId : null,
      expiresAt: input.expiresAt ?? null,
      createdByKeyId: input.createdByKeyId ?? null,
    })
    .returning();
  if (input.scopes?.length) {
    await tx.insert(apiKeyScopes).values(input.scopes.map((s) => ({ keyId: key!.id, networkId: s.networkId, role: s.role })));
  }
  return { key: key!, token };
}
