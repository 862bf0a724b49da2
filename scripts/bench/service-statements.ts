import type { RenderedStatement } from '@/db/statement';
import { CREDENTIAL_STATEMENTS } from '@/server/auth/credential-lock';
import { FIND_KEY_STATEMENT } from '@/server/auth/principal';
import { IDEMPOTENCY_STATEMENTS } from '@/server/http/idempotency';
import { LIVE_ADVERTISER_FOR_SHARE_STATEMENT } from '@/server/services/advertisers/find-advertisers';
import { INSERT_CAMPAIGN_STATEMENT } from '@/server/services/campaigns/create-campaign';
import { INSERT_NETWORK_STATEMENT } from '@/server/services/networks/create-network';
import { LIST_NETWORKS_STATEMENTS } from '@/server/services/networks/list-networks';

/**
 * Every statement on the bare server's (baseline.ts) requests' path, taken from the service as Postgres receives
 * it (db/statement.ts), so the two can never drift apart: a hand-kept copy of the key lookup did,
 * and ran Postgres ~2.7× longer per lookup than the service's.
 * `npm run bench` hands them to the baseline as JSON in BENCH_STATEMENTS, so that process loads
 * none of the service's modules (Drizzle, the schema: ~90 MiB more RSS); run alone, it imports this.
 */
export const SERVICE_STATEMENTS = {
  findKey: FIND_KEY_STATEMENT,
  allNetworks: LIST_NETWORKS_STATEMENTS.all,
  scopedNetworks: LIST_NETWORKS_STATEMENTS.scoped,
  holdCredential: CREDENTIAL_STATEMENTS.holdShared,
  findKeyById: CREDENTIAL_STATEMENTS.findKeyById,
  findKeyOnNetwork: CREDENTIAL_STATEMENTS.findKeyOnNetwork,
  takeKey: IDEMPOTENCY_STATEMENTS.takeKey,
  liveAdvertiserForShare: LIVE_ADVERTISER_FOR_SHARE_STATEMENT,
  insertCampaign: INSERT_CAMPAIGN_STATEMENT,
  insertNetwork: INSERT_NETWORK_STATEMENT,
  storeAnswer: IDEMPOTENCY_STATEMENTS.storeAnswer,
} satisfies Record<string, RenderedStatement>;

export type ServiceStatements = typeof SERVICE_STATEMENTS;
