import { sql } from 'drizzle-orm';
import { postgresClientOf, type Tx } from '@/db/client';
import { column, tableStatement } from '@/db/statement';
import { newId } from '@/db/ids';
import { campaigns } from '@/db/schema';
import { badRequest } from '@/server/errors';
import { findAdvertiser } from '@/server/services/advertisers/find-advertisers';
import { assertCampaignTerms, assertScriptHasRequiredLines, type CampaignTerms } from './campaign-rules';
import type { CampaignRow } from './find-campaigns';
import type { CampaignStatus } from '@/domain/campaign-transitions';

export interface CreateCampaignInput extends CampaignTerms {
  networkId: string;
  advertiserId: string;
  name: string;
  script: string;
  /** Empty when left out. */
  talkingPoints?: string[] | undefined;
  requiredLines?: string[] | undefined;
  status: CampaignStatus;
  /** false when left out. */
  competitiveSeparation?: boolean | undefined;
}

const c = campaigns;
/** Every keyed POST of a campaign runs this: rendered once (db/statement.ts). Timestamps go in as ISO text. */
const insertCampaign = tableStatement<
  typeof campaigns,
  Pick<
    CampaignRow,
    | 'id'
    | 'networkId'
    | 'advertiserId'
    | 'name'
    | 'script'
    | 'talkingPoints'
    | 'requiredLines'
    | 'status'
    | 'budgetCents'
    | 'currency'
    | 'competitiveSeparation'
  > & {
    startsAt: string | null;
    endsAt: string | null;
  }
>(c, (columns) => {
  const p = sql.placeholder;
  return sql`
    insert into ${c} (${column(c.id)}, ${column(c.networkId)}, ${column(c.advertiserId)}, ${column(c.name)}, ${column(c.script)},
      ${column(c.talkingPoints)}, ${column(c.requiredLines)}, ${column(c.status)},
      ${column(c.startsAt)}, ${column(c.endsAt)}, ${column(c.budgetCents)}, ${column(c.currency)}, ${column(c.competitiveSeparation)})
    values (${p('id')}, ${p('networkId')}, ${p('advertiserId')}, ${p('name')}, ${p('script')},
      ${p('talkingPoints')}::text[], ${p('requiredLines')}::text[], ${p('status')},
      ${p('startsAt')}, ${p('endsAt')}, ${p('budgetCents')}, ${p('currency')}, ${p('competitiveSeparation')})
    returning ${columns}`;
});

/** As Postgres receives it: the benchmark's bare server runs it (scripts/bench/service-statements.ts). */
export const INSERT_CAMPAIGN_STATEMENT = insertCampaign.rendered;

/**
 * Create a campaign for a live advertiser of the same network. An unknown,
 * deleted or foreign advertiser is a 400 on `advertiser_id` (the request is
 * wrong, the URL is fine). The advertiser row is share-locked so a concurrent
 * delete either waits for this campaign (and then sees it) or wins first.
 */
export async function createCampaign({ tx, ...input }: { tx: Tx } & CreateCampaignInput): Promise<CampaignRow> {
  const advertiser = await findAdvertiser({ db: tx, networkId: input.networkId, advertiserId: input.advertiserId, lock: 'share' });
  if (!advertiser) {
    throw badRequest('advertiser_id does not name an advertiser of this network.', [
      { path: 'advertiser_id', message: 'No advertiser with this id in this network.' },
    ]);
  }
  assertCampaignTerms(input);
  assertScriptHasRequiredLines({ script: input.script, requiredLines: input.requiredLines ?? [] });
  const [row] = await insertCampaign(postgresClientOf(tx), {
    id: newId('campaign'),
    networkId: input.networkId,
    advertiserId: advertiser.id,
    name: input.name,
    script: input.script,
    talkingPoints: input.talkingPoints ?? [],
    requiredLines: input.requiredLines ?? [],
    status: input.status,
    startsAt: input.startsAt?.toISOString() ?? null,
    endsAt: input.endsAt?.toISOString() ?? null,
    budgetCents: input.budgetCents,
    currency: input.currency,
    competitiveSeparation: input.competitiveSeparation ?? false,
  });
  return row!;
}
